import Foundation
import LoopbackServer
import XCTest

/// The loopback server is what every network test trusts, so its behaviour (and its faults)
/// is checked on the wire with a raw socket client, and against real libcurl through curl(1).
final class LoopbackServerTests: XCTestCase {
  private var server: LoopbackServer!
  private let body = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

  override func setUpWithError() throws {
    server = try LoopbackServer()
  }

  override func tearDown() {
    server.stop()
  }

  private func get(_ target: String, _ headers: [String: String] = [:]) throws -> RawHTTPResponse {
    try RawHTTPClient.send(target, port: server.port, headers: headers)
  }

  // MARK: Plain serving and the request log

  func testServesRouteAndRecordsRequest() throws {
    server.set("/hello", .text("hi there"))
    let response = try get("/hello?page=2", ["X-Test": "yes"])

    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hi there")
    XCTAssertEqual(response.header("Content-Length"), "8")
    XCTAssertEqual(response.header("Content-Type"), "text/plain; charset=utf-8")
    let recorded = server.requests(for: "/hello")
    XCTAssertEqual(recorded.map(\.target), ["/hello?page=2"])
    XCTAssertEqual(recorded.first?.header("x-test"), "yes")
    XCTAssertEqual(recorded.first?.method, "GET")
  }

  func testUnknownPathIs404() throws {
    XCTAssertEqual(try get("/nothing").status, 404)
  }

  func testMalformedRequestGets400() throws {
    server.set("/upload", .text("ok"))
    XCTAssertEqual(try get("/upload", ["Content-Length": "-5"]).status, 400)
    XCTAssertEqual(try get("/upload", ["Content-Length": "0"]).status, 200)
  }

  func testHeadSendsHeadersWithoutBody() throws {
    server.set("/ep.mp3", .data(body, contentType: "audio/mpeg"))
    let response = try RawHTTPClient.send("/ep.mp3", method: "HEAD", port: server.port)
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(response.header("Content-Length"), "100000")
    XCTAssertEqual(response.body.count, 0)
  }

  // MARK: Ranges and validators

  func testRangeRequestsGet206AndOutOfRangeGets416() throws {
    server.set("/ep.mp3", .data(body))

    let open = try get("/ep.mp3", ["Range": "bytes=40000-"])
    XCTAssertEqual(open.status, 206)
    XCTAssertEqual(open.header("Content-Range"), "bytes 40000-99999/100000")
    XCTAssertEqual(open.body, body[40000...])

    let closed = try get("/ep.mp3", ["Range": "bytes=10-19"])
    XCTAssertEqual(closed.status, 206)
    XCTAssertEqual(closed.body, body[10...19])

    let beyond = try get("/ep.mp3", ["Range": "bytes=100000-"])
    XCTAssertEqual(beyond.status, 416)
    XCTAssertEqual(beyond.header("Content-Range"), "bytes */100000")
    XCTAssertEqual(beyond.body.count, 0)
  }

  func testIgnoringRangeSendsWholeBody() throws {
    server.set("/ep.mp3", .data(body).ignoringRange())
    let response = try get("/ep.mp3", ["Range": "bytes=40000-"])
    XCTAssertEqual(response.status, 200)
    XCTAssertNil(response.header("Accept-Ranges"))
    XCTAssertEqual(response.body, body)
  }

  func testIfRangeHonoursRangeOnlyWhileETagMatches() throws {
    server.set("/ep.mp3", .data(body).withETag("\"v2\""))
    let same = try get("/ep.mp3", ["Range": "bytes=99990-", "If-Range": "\"v2\""])
    XCTAssertEqual(same.status, 206)
    XCTAssertEqual(same.body.count, 10)

    let changed = try get("/ep.mp3", ["Range": "bytes=99990-", "If-Range": "\"v1\""])
    XCTAssertEqual(changed.status, 200)
    XCTAssertEqual(changed.body, body)
  }

  func testMatchingETagGets304AndOtherETagGetsBody() throws {
    server.set("/feed.xml", .text("<rss/>", contentType: "application/rss+xml").withETag("\"abc\""))

    let fresh = try get("/feed.xml", ["If-None-Match": "\"abc\""])
    XCTAssertEqual(fresh.status, 304)
    XCTAssertEqual(fresh.header("ETag"), "\"abc\"")
    XCTAssertEqual(fresh.body.count, 0)

    let stale = try get("/feed.xml", ["If-None-Match": "\"old\""])
    XCTAssertEqual(stale.status, 200)
    XCTAssertEqual(String(decoding: stale.body, as: UTF8.self), "<rss/>")
  }

  func testIfModifiedSinceGets304UnlessChangedSince() throws {
    let modified = Date(timeIntervalSince1970: 1_700_000_000)
    server.set("/feed.xml", .text("<rss/>").withLastModified(modified))

    let first = try get("/feed.xml")
    XCTAssertEqual(first.header("Last-Modified"), "Tue, 14 Nov 2023 22:13:20 GMT")
    XCTAssertEqual(
      try get("/feed.xml", ["If-Modified-Since": "Tue, 14 Nov 2023 22:13:20 GMT"]).status, 304)
    XCTAssertEqual(
      try get("/feed.xml", ["If-Modified-Since": "Tue, 14 Nov 2023 22:13:19 GMT"]).status, 200)
  }

  // MARK: Faults

  func testDroppingCutsFirstResponseThenServesWholeBody() throws {
    server.set("/ep.mp3", .data(body).dropping(after: 50_000, times: 1))

    let cut = try get("/ep.mp3")
    XCTAssertEqual(cut.header("Content-Length"), "100000")
    XCTAssertEqual(cut.body, body[..<50_000])

    let retry = try get("/ep.mp3")
    XCTAssertEqual(retry.body, body)
  }

  func testLyingAboutLengthAnnouncesMoreThanSent() throws {
    server.set("/ep.mp3", .data(body).lyingAboutLength(by: 1000))
    let response = try get("/ep.mp3")
    XCTAssertEqual(response.header("Content-Length"), "101000")
    XCTAssertEqual(response.body, body)
  }

  func testRedirectsGoAnywhereAskedIncludingNonHTTP() throws {
    server.set("/evil", .redirect(to: "file:///etc/passwd", status: 301))
    server.set("/moved", .redirect(to: server.url("/new"), status: 308))

    let evil = try get("/evil")
    XCTAssertEqual(evil.status, 301)
    XCTAssertEqual(evil.header("Location"), "file:///etc/passwd")
    let moved = try get("/moved")
    XCTAssertEqual(moved.status, 308)
    XCTAssertEqual(moved.header("Location"), "http://127.0.0.1:\(server.port)/new")
  }

  func testGzipWithAndWithoutContentEncoding() throws {
    let text = Data(String(repeating: "show notes & more ", count: 500).utf8)
    server.set("/declared", .data(text).gzipped())
    server.set("/undeclared", .data(text).gzippedWithoutContentEncoding())

    let declared = try get("/declared")
    XCTAssertEqual(declared.header("Content-Encoding"), "gzip")
    XCTAssertLessThan(declared.body.count, text.count)
    XCTAssertEqual(Gzip.decompress(declared.body), text)

    let undeclared = try get("/undeclared")
    XCTAssertNil(undeclared.header("Content-Encoding"))
    XCTAssertEqual(Array(undeclared.body.prefix(2)), [0x1F, 0x8B])
    XCTAssertEqual(Gzip.decompress(undeclared.body), text)
  }

  func testSequenceAnswersInTurnThenRepeatsLast() throws {
    server.set("/feed", .sequence([.status(500), .tooManyRequests(retryAfter: 1), .text("ok")]))

    XCTAssertEqual(try get("/feed").status, 500)
    let limited = try get("/feed")
    XCTAssertEqual(limited.status, 429)
    XCTAssertEqual(limited.header("Retry-After"), "1")
    XCTAssertEqual(try get("/feed").status, 200)
    XCTAssertEqual(try get("/feed").status, 200)
  }

  func testARespondingRouteAnswersFromTheRequestItGets() throws {
    server.set(
      "/signed",
      .responding { request in
        request.header("X-Token") == "right"
          ? .text("welcome \(request.query ?? "")") : .status(401, body: "no")
      })

    let refused = try get("/signed?a=1", ["X-Token": "wrong"])
    let accepted = try get("/signed?a=2", ["X-Token": "right"])

    XCTAssertEqual(refused.status, 401)
    XCTAssertEqual(accepted.status, 200)
    XCTAssertEqual(String(decoding: accepted.body, as: UTF8.self), "welcome a=2")
    XCTAssertEqual(server.requests(for: "/signed").count, 2)
  }

  func testTricklingSlowsTheBody() throws {
    server.set("/slow", .data(Data(count: 3000)).trickling(bytesPerSecond: 10_000))
    let started = Date()
    let response = try get("/slow")
    XCTAssertEqual(response.body.count, 3000)
    XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.2)
  }

  func testStopEndsAStalledResponse() throws {
    server.set("/stuck", .data(body).stalling(after: 1000, seconds: nil))
    let port = server.port
    let finished = expectation(description: "client sees the connection close")
    let received = LockedBox(0)
    Thread {
      received.value = (try? RawHTTPClient.send("/stuck", port: port).body.count) ?? -1
      finished.fulfill()
    }.start()
    // Stopped once the response is under way, so it is the stop that ends it.
    XCTAssertTrue(
      server.wait { self.server.bodyBytesSent(for: "/stuck") == 1000 }, "the stall began")
    server.stop()
    wait(for: [finished], timeout: 3)
    XCTAssertEqual(received.value, 1000)
  }

  // MARK: Waiting on the record

  func testWaitReturnsOnceTheRequestIsRecorded() throws {
    server.set("/late", .text("here"))
    let port = server.port
    XCTAssertFalse(server.wait(timeout: 0.05) { !self.server.requests.isEmpty }, "nothing yet")
    Thread { _ = try? RawHTTPClient.send("/late", port: port) }.start()
    XCTAssertTrue(server.wait { self.server.requests(for: "/late").count == 1 })
  }

  /// A stalled response shows how far it got, and `releaseStalls` lets it finish; the log
  /// line comes only once it has.
  func testBodyBytesAreCountedAsTheyGoOutAndAReleasedStallFinishes() throws {
    let log = LockedBox<[String]>([])
    let logged = try LoopbackServer { line in log.value = log.value + [line] }
    defer { logged.stop() }
    logged.set("/held", .data(body).stalling(after: 30_000, seconds: nil))
    let port = logged.port
    let finished = expectation(description: "the client gets the whole body")
    let received = LockedBox(0)
    Thread {
      received.value = (try? RawHTTPClient.send("/held", port: port).body.count) ?? -1
      finished.fulfill()
    }.start()

    XCTAssertTrue(logged.wait { logged.bodyBytesSent(for: "/held") == 30_000 })
    XCTAssertEqual(logged.bodyBytesSent, 30_000)
    XCTAssertEqual(log.value, [], "the response is still under way")
    logged.releaseStalls()
    wait(for: [finished], timeout: 30)
    XCTAssertEqual(received.value, body.count)
    XCTAssertEqual(logged.bodyBytesSent(for: "/held"), body.count)
    let line = "GET /held 200 \(body.count)"
    XCTAssertTrue(logged.wait { log.value == [line] }, log.value.description)
  }

  func testRequestsCarryWhenTheyArrivedInOrder() throws {
    server.set("/a", .text("a"))
    _ = try get("/a")
    _ = try get("/a")
    let times = server.requests(for: "/a").map(\.received)
    XCTAssertEqual(times.count, 2)
    XCTAssertLessThanOrEqual(times[0], times[1])
  }

  // MARK: Directories

  func testDirectorySubstitutesBaseAndRefusesEscapes() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data("<enclosure url=\"{{base}}/audio/1.mp3\"/>".utf8).write(
      to: directory.appendingPathComponent("feed.xml"))
    try body.write(to: directory.appendingPathComponent("1.mp3"))
    server.setDirectory(directory.path)
    server.setDirectory(directory.path, under: "/audio")

    let feed = try get("/feed.xml")
    XCTAssertEqual(
      String(decoding: feed.body, as: UTF8.self),
      "<enclosure url=\"\(server.baseURL)/audio/1.mp3\"/>")
    let audio = try get("/audio/1.mp3", ["Range": "bytes=99000-"])
    XCTAssertEqual(audio.status, 206)
    XCTAssertEqual(audio.body, body[99000...])
    XCTAssertNotNil(audio.header("ETag"))
    XCTAssertEqual(audio.header("Content-Type"), "audio/mpeg")
    XCTAssertEqual(try get("/audio/../../etc/passwd").status, 404)
  }

  // MARK: Real libcurl

  func testCurlReusesConnectionAndDecodesGzip() throws {
    server.set("/a", .text("first").gzipped())
    server.set("/b", .text("second"))
    let run = try curl(["-sv", "--compressed", server.url("/a"), server.url("/b")])
    XCTAssertEqual(run.status, 0)
    XCTAssertEqual(run.stdout, "firstsecond")
    XCTAssertTrue(run.stderr.contains("Re-using existing connection"), run.stderr)
    XCTAssertEqual(server.requests.count, 2)
  }

  func testCurlGivesUpOnRedirectLoopAndCutBody() throws {
    server.set("/a", .redirect(to: "/b"))
    server.set("/b", .redirect(to: "/a", status: 307))
    XCTAssertEqual(try curl(["-s", "-L", "--max-redirs", "5", server.url("/a")]).status, 47)

    server.set("/ep.mp3", .data(body).dropping(after: 1000))
    XCTAssertEqual(try curl(["-s", "-o", "/dev/null", server.url("/ep.mp3")]).status, 18)
  }

  private func curl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String)
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["--max-time", "5"] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: out, as: UTF8.self),
      String(decoding: err, as: UTF8.self)
    )
  }
}

/// A value shared between a test and a thread it starts.
private final class LockedBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
