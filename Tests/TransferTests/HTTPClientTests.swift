import Basics
import Foundation
import LoopbackServer
import Privacy
import Transfer
import XCTest

/// The transfer layer (HTTPClient over CurlTransfer) against the loopback server: what it asks
/// for, what it follows, what it refuses and what it hands back.
final class HTTPClientTests: XCTestCase {
  private var server: LoopbackServer!
  private let body = Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

  override func setUpWithError() throws {
    server = try LoopbackServer()
  }

  override func tearDownWithError() throws {
    server.stop()
  }

  /// A GET as the downloader makes it, into memory.
  /// A GET as the downloader makes it (its own request, not `fetch`'s), into memory.
  private func perform(_ request: TransferRequest) async throws -> (head: ResponseHead, body: Data)
  {
    let sink = MemorySink(url: request.url, limit: 256 << 20)
    let head = try await HTTPClient().perform(request, into: sink)
    return (head, sink.body)
  }

  private func media(_ path: String) -> TransferRequest {
    var request = TransferRequest(url: server.url(path), options: TransferOptions())
    request.acceptsCompression = false
    return request
  }

  /// The error `body` throws, which must be a `TransferError`.
  private func transferError(_ body: () async throws -> Void) async -> TransferError? {
    do {
      try await body()
      XCTFail("no error")
      return nil
    } catch let error as TransferError {
      return error
    } catch {
      XCTFail("not a TransferError: \(error)")
      return nil
    }
  }

  // MARK: Ranges

  func testARangeRequestGets206AndTheBytesFromTheOffset() async throws {
    server.set("/a.mp3", .data(body, contentType: "audio/mpeg").withETag("\"v1\""))
    var request = media("/a.mp3")
    request.rangeStart = 1_234
    request.ifRange = "\"v1\""

    let (head, received) = try await perform(request)

    XCTAssertEqual(head.status, 206)
    XCTAssertEqual(received, body[1_234...])
    XCTAssertEqual(head.headers["content-range"], "bytes 1234-4999/5000")
    let sent = try XCTUnwrap(server.requests(for: "/a.mp3").last)
    XCTAssertEqual(sent.header("Range"), "bytes=1234-")
    XCTAssertEqual(sent.header("If-Range"), "\"v1\"")
    XCTAssertEqual(sent.header("Accept-Encoding"), "identity", "media stays byte for byte")
  }

  /// If-Range is what keeps a resume from gluing the tail of a new file onto an old start.
  func testAChangedFileComesBackWholeDespiteTheRange() async throws {
    server.set("/a.mp3", .data(body, contentType: "audio/mpeg").withETag("\"v2\""))
    var request = media("/a.mp3")
    request.rangeStart = 1_234
    request.ifRange = "\"v1\""

    let (head, received) = try await perform(request)

    XCTAssertEqual(head.status, 200)
    XCTAssertEqual(received, body)
  }

  func testNoRangeIsSentFromOffsetZero() async throws {
    server.set("/a.mp3", .data(body, contentType: "audio/mpeg"))
    var request = media("/a.mp3")
    request.rangeStart = 0
    request.ifRange = "\"v1\""

    let (head, received) = try await perform(request)

    XCTAssertEqual(head.status, 200)
    XCTAssertEqual(received, body)
    let sent = try XCTUnwrap(server.requests(for: "/a.mp3").last)
    XCTAssertNil(sent.header("Range"))
    XCTAssertNil(sent.header("If-Range"))
  }

  // MARK: Redirects

  func testARedirectChainIsFollowedAndTheFinalURLReported() async throws {
    server.set("/old", .redirect(to: "/older", status: 301))
    server.set("/older", .redirect(to: server.url("/feed.xml"), status: 302))
    server.set("/feed.xml", .text("<rss/>", contentType: "application/rss+xml"))

    let response = try await HTTPClient().fetch(server.url("/old"))

    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(response.url, server.url("/feed.xml"))
    XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "<rss/>")
    XCTAssertEqual(response.redirects.map(\.status), [301, 302])
    XCTAssertEqual(
      response.redirects.map(\.url), [server.url("/older"), server.url("/feed.xml")],
      "a relative Location is resolved against the URL that sent it")
  }

  func testARedirectToAnotherSchemeIsRefused() async throws {
    for location in ["file:///etc/passwd", "ftp://127.0.0.1/feed.xml", "gopher://127.0.0.1/1"] {
      server.set("/feed", .redirect(to: location))
      let error = await transferError { _ = try await HTTPClient().fetch(self.server.url("/feed")) }
      XCTAssertEqual(
        error, .redirectRefused(url: server.url("/feed"), location: location), location)
    }
  }

  func testANonHTTPURLIsRefusedBeforeAnyRequest() async throws {
    for url in ["file:///etc/passwd", "ftp://127.0.0.1/feed.xml"] {
      let error = await transferError { _ = try await HTTPClient().fetch(url) }
      XCTAssertEqual(error, .unsupportedScheme(url: url))
    }
    let error = await transferError { _ = try await HTTPClient().fetch("http://") }
    XCTAssertEqual(error, .invalidURL("http://"))
    XCTAssertTrue(server.requests.isEmpty)
  }

  func testARedirectLoopEndsAtTheLimit() async throws {
    server.set("/a", .redirect(to: "/b"))
    server.set("/b", .redirect(to: "/a"))
    let client = HTTPClient(options: TransferOptions(maxRedirects: 3))

    let error = await transferError { _ = try await client.fetch(self.server.url("/a")) }

    XCTAssertEqual(error, .tooManyRedirects(url: server.url("/a"), limit: 3))
    XCTAssertEqual(server.requests.count, 4, "the first request and three redirects")
  }

  // MARK: Conditional GET

  func testAMatchingETagGets304WithNoBody() async throws {
    server.set("/feed.xml", .text("<rss/>").withETag("\"v1\""))

    let first = try await HTTPClient().fetch(server.url("/feed.xml"))
    XCTAssertEqual(first.validators.etag, "\"v1\"")
    let second = try await HTTPClient().fetch(
      server.url("/feed.xml"), validators: first.validators)

    XCTAssertTrue(second.notModified)
    XCTAssertEqual(second.status, 304)
    XCTAssertTrue(second.body.isEmpty)
    XCTAssertNil(server.requests(for: "/feed.xml").first?.header("If-None-Match"))
    XCTAssertEqual(server.requests(for: "/feed.xml").last?.header("If-None-Match"), "\"v1\"")
  }

  func testAChangedETagGetsTheNewBody() async throws {
    server.set("/feed.xml", .text("<rss>new</rss>").withETag("\"v2\""))

    let response = try await HTTPClient().fetch(
      server.url("/feed.xml"), validators: Validators(etag: "\"v1\""))

    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "<rss>new</rss>")
    XCTAssertEqual(response.validators.etag, "\"v2\"")
  }

  /// `start`, the sync's way to ask without a task per feed: the answer (a 304, a body, or
  /// the error `fetch` would throw) comes to the completion, as `fetch` would return it.
  func testAStartedFetchHandsItsAnswerToItsCompletion() async throws {
    server.set("/same.xml", .text("<rss/>").withETag("\"v1\""))
    server.set("/new.xml", .text("<rss>new</rss>").withETag("\"v2\""))
    server.set("/gone.xml", .status(404))
    let client = HTTPClient()
    let answer = { (url: String) async -> Result<HTTPResponse, Error> in
      await withCheckedContinuation { done in
        client.start(fetching: url, validators: Validators(etag: "\"v1\"")) {
          done.resume(returning: $0)
        }
      }
    }

    let same = try await answer(server.url("/same.xml")).get()
    let new = try await answer(server.url("/new.xml")).get()
    let gone = await answer(server.url("/gone.xml"))
    let refused = await answer("ftp://example.com/feed.xml")

    XCTAssertTrue(same.notModified)
    XCTAssertEqual(server.requests(for: "/same.xml").last?.header("If-None-Match"), "\"v1\"")
    XCTAssertEqual(String(decoding: new.body, as: UTF8.self), "<rss>new</rss>")
    XCTAssertEqual(new.validators.etag, "\"v2\"")
    XCTAssertThrowsError(try gone.get()) {
      XCTAssertEqual(
        $0 as? TransferError,
        .httpStatus(url: server.url("/gone.xml"), status: 404, retryAfter: nil))
    }
    XCTAssertThrowsError(try refused.get()) {
      XCTAssertEqual($0 as? TransferError, .unsupportedScheme(url: "ftp://example.com/feed.xml"))
    }
  }

  /// A fetch started from another's completion, on the transfer thread (a sync starts the
  /// next feeds where it hears a 304), runs like any other: a chain of them, each started by
  /// the one before, all answered in order.
  func testAFetchStartedFromACompletionRuns() async throws {
    for n in 0..<20 { server.set("/feed-\(n).xml", .text("<rss/>").withETag("\"v\(n)\"")) }
    let client = HTTPClient()
    let urls = (0..<20).map { server.url("/feed-\($0).xml") }
    let answered = Locked<[Int]>([])
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      @Sendable func fetch(_ n: Int) {
        client.start(
          fetching: urls[n], validators: Validators(etag: "\"v\(n)\"")
        ) {
          if case .success(let response) = $0, response.notModified {
            answered.withLock { $0.append(n) }
          }
          if n == 19 { done.resume() } else { fetch(n + 1) }
        }
      }
      fetch(0)
    }
    XCTAssertEqual(answered.withLock { $0 }, Array(0..<20))
  }

  /// Easy handles are used again: one that carried a login, a range, a body and headers of
  /// its own leaves none of them to the plain GETs after it.
  func testAHandleUsedAgainCarriesNothingOfTheTransferBefore() async throws {
    server.set("/api", .text("ok"))
    server.set("/media.mp3", .data(body))
    var post = TransferRequest(url: server.url("/api"), options: TransferOptions())
    post.method = .put
    post.body = Data("secret".utf8)
    post.headers = [("Cookie", "sessionid=abc")]
    post.credentials = FeedCredentials(user: "alice", password: "wonder land")
    _ = try await HTTPClient().send(post)
    var ranged = media("/media.mp3")
    ranged.rangeStart = 1_000
    _ = try await perform(ranged)

    for _ in 0..<3 { _ = try await HTTPClient().fetch(server.url("/api")) }

    let sent = try XCTUnwrap(server.requests(for: "/api").last)
    XCTAssertEqual(server.requests(for: "/api").count, 4)
    XCTAssertEqual(sent.method, "GET")
    XCTAssertTrue(sent.body.isEmpty)
    for name in ["Authorization", "Cookie", "Range", "Content-Length", "If-Range"] {
      XCTAssertNil(sent.header(name), name)
    }
  }

  /// A download with buffers of its own size (bulk, or paced by a rate limit) right after
  /// feed fetches gets its bytes. libcurl refuses a new buffer size on a handle that kept a
  /// buffer (over HTTPS, which `make bench-wan` covers: a sync once failed every episode so),
  /// so such a download gets a handle of its own.
  func testADownloadWithItsOwnBufferSizeAfterFeedFetchesGetsItsBytes() async throws {
    server.set("/feed.xml", .text("<rss/>"))
    server.set("/media.mp3", .data(body))
    var bulk = media("/media.mp3")
    bulk.bulk = true
    var paced = media("/media.mp3")
    paced.options.rateLimit = RateLimit(bytesPerSecond: 50_000_000)

    // Handles go back for others as their transfers let go of them, a moment after each
    // answer: several rounds, so that the downloads meet handles the fetches left.
    let feed = server.url("/feed.xml")
    for _ in 0..<20 {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<4 { group.addTask { _ = try await HTTPClient().fetch(feed) } }
        try await group.waitForAll()
      }
      for request in [bulk, paced] {
        let (head, received) = try await perform(request)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(received, body)
      }
    }
    XCTAssertEqual(server.requests(for: "/feed.xml").count, 80)
  }

  func testAnUnchangedLastModifiedGets304() async throws {
    let modified = Date(timeIntervalSince1970: 1_715_335_200)
    server.set("/feed.xml", .text("<rss/>").withLastModified(modified))

    let first = try await HTTPClient().fetch(server.url("/feed.xml"))
    let lastModified = try XCTUnwrap(first.validators.lastModified)
    let second = try await HTTPClient().fetch(
      server.url("/feed.xml"), validators: Validators(lastModified: lastModified))

    XCTAssertTrue(second.notModified)
    XCTAssertEqual(
      server.requests(for: "/feed.xml").last?.header("If-Modified-Since"), lastModified)
  }

  // MARK: Statuses

  func testAnErrorStatusThrowsWithTheServersRetryAfter() async throws {
    server.set("/gone", .status(404))
    server.set(
      "/busy", .status(503, body: "later").withHeader("Retry-After", "120"))

    let missing = await transferError { _ = try await HTTPClient().fetch(self.server.url("/gone")) }
    let busy = await transferError { _ = try await HTTPClient().fetch(self.server.url("/busy")) }

    XCTAssertEqual(missing, .httpStatus(url: server.url("/gone"), status: 404, retryAfter: nil))
    XCTAssertEqual(missing?.isTransient, false)
    XCTAssertEqual(busy, .httpStatus(url: server.url("/busy"), status: 503, retryAfter: 120))
    XCTAssertEqual(busy?.isTransient, true)
  }

  /// A host name with no address fails at once and for good. A label longer than 63 bytes
  /// makes the resolver refuse the name itself, so no query leaves the machine.
  func testAHostWithNoAddressIsNotWorthRetrying() async {
    let url = "http://" + String(repeating: "a", count: 64) + ".test/feed.xml"

    let error = await transferError { _ = try await HTTPClient().fetch(url) }

    guard case .unknownHost(url, let reason)? = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertTrue(reason.contains("resolve"), reason)
    XCTAssertEqual(error?.isTransient, false)
  }

  // MARK: Size cap

  func testABodyPastTheCapIsRefusedFromItsDeclaredLength() async throws {
    server.set("/big.xml", .data(body, contentType: "application/rss+xml"))
    let client = HTTPClient(maxBodyBytes: 1_000)

    let error = await transferError { _ = try await client.fetch(self.server.url("/big.xml")) }

    XCTAssertEqual(error, .tooLarge(url: server.url("/big.xml"), limit: 1_000))
  }

  /// A compressed body's Content-Length says nothing about its size once decoded: the cap
  /// counts the decoded bytes as they arrive.
  func testACompressedBodyPastTheCapIsRefusedAsItArrives() async throws {
    let text = String(repeating: "<item>an episode</item>\n", count: 2_000)
    server.set("/big.xml", .text(text, contentType: "application/rss+xml").gzipped())
    let client = HTTPClient(maxBodyBytes: 10_000)

    let error = await transferError { _ = try await client.fetch(self.server.url("/big.xml")) }

    XCTAssertEqual(error, .tooLarge(url: server.url("/big.xml"), limit: 10_000))
  }

  func testABodyAtTheCapIsKept() async throws {
    server.set("/exact.xml", .data(body, contentType: "application/rss+xml"))
    let client = HTTPClient(maxBodyBytes: Int64(body.count))

    let response = try await client.fetch(server.url("/exact.xml"))

    XCTAssertEqual(response.body, body)
  }

  // MARK: Compression

  func testAGzippedFeedArrivesDecoded() async throws {
    let text = String(repeating: "<item>an episode</item>\n", count: 200)
    server.set("/feed.xml", .text(text, contentType: "application/rss+xml").gzipped())

    let response = try await HTTPClient().fetch(server.url("/feed.xml"))

    XCTAssertEqual(String(decoding: response.body, as: UTF8.self), text)
    let accepted = try XCTUnwrap(server.requests(for: "/feed.xml").last?.header("Accept-Encoding"))
    XCTAssertTrue(accepted.contains("gzip"), accepted)
  }

  // MARK: Rate limit

  /// The budget is charged with what arrives: a timing-free check that the option reaches the
  /// transfer. One 100-byte body (one write from the server) at 1 byte/s leaves the budget
  /// spent for the next 100 s, so a second transfer sharing it would have to wait.
  func testReceivedBytesAreChargedToTheRateLimit() async throws {
    let small = Data(body.prefix(100))
    server.set("/a.mp3", .data(small, contentType: "audio/mpeg"))
    var options = TransferOptions()
    let limit = RateLimit(bytesPerSecond: 1)
    options.rateLimit = limit
    XCTAssertNil(limit.spentUntil(), "a fresh budget is not spent")

    let response = try await HTTPClient(options: options).fetch(server.url("/a.mp3"))

    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(response.body, small)
    XCTAssertNotNil(limit.spentUntil(), "the 100 bytes were charged to the shared budget")
  }

  /// `limitedTo` copies keep one budget object: every download of a run shares it.
  func testOptionsCarryTheSameBudgetObject() {
    var options = TransferOptions()
    options.rateLimit = RateLimit(bytesPerSecond: 500 << 10)
    let copy = options
    XCTAssertEqual(copy.rateLimit, options.rateLimit)
    XCTAssertNotEqual(
      RateLimit(bytesPerSecond: 500 << 10), options.rateLimit, "same size, another budget")
  }
}
