import Foundation
import LoopbackServer
import Transfer
import XCTest

/// The one thread that drives every transfer: it runs many at once, each to its own result;
/// a cancelled one ends as cancelled without disturbing the others; a failure is reported as
/// what went wrong; and stopping everything (Ctrl-C) hands each sink what had arrived. Bodies
/// are held by the server while the test looks, so nothing depends on how fast anything is.
final class TransferEngineTests: XCTestCase {
  private var server: LoopbackServer!

  override func setUpWithError() throws {
    server = try LoopbackServer()
  }

  override func tearDownWithError() throws {
    server.stop()
  }

  private func body(_ index: Int, size: Int = 200_000) -> Data {
    Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ index) })
  }

  private func media(_ path: String, options: TransferOptions = TransferOptions())
    -> TransferRequest
  {
    var request = TransferRequest(url: server.url(path), options: options)
    request.acceptsCompression = false
    return request
  }

  /// Every body is held after 50,000 bytes: all ten are seen stalled at once, which an engine
  /// running them one after the other could never show. Released, each gets its own bytes.
  func testManyTransfersRunAtOnceAndEachGetsItsOwnBody() async throws {
    let count = 10
    for index in 0..<count {
      server.set("/\(index).mp3", .data(body(index)).stalling(after: 50_000, seconds: nil))
    }
    let requests = (0..<count).map { media("/\($0).mp3") }
    let results = Task {
      await withTaskGroup(of: (Int, Result<Data, TransferError>).self) { group in
        for (index, request) in requests.enumerated() {
          group.addTask { (index, await fetch(request)) }
        }
        var results: [Int: Result<Data, TransferError>] = [:]
        for await (index, result) in group { results[index] = result }
        return results
      }
    }

    let allHeld = server.wait {
      (0..<count).allSatisfy { self.server.bodyBytesSent(for: "/\($0).mp3") == 50_000 }
    }
    XCTAssertTrue(allHeld, "not all \(count) transfers were under way together")
    server.releaseStalls()

    let finished = await results.value
    XCTAssertEqual(finished.count, count)
    for index in 0..<count {
      guard case .success(let data)? = finished[index] else {
        XCTFail("\(index): \(String(describing: finished[index]))")
        continue
      }
      XCTAssertTrue(data == body(index), "transfer \(index) got another body")
    }
    XCTAssertEqual(server.requests.count, count, "one request each")
  }

  /// Cancelling one transfer ends it as cancelled; the one beside it carries on to the end.
  func testACancelledTransferEndsAsCancelledAndTheOthersCarryOn() async throws {
    server.set("/cancelled.mp3", .data(body(1)).stalling(after: 30_000, seconds: nil))
    server.set("/kept.mp3", .data(body(2)).stalling(after: 30_000, seconds: nil))
    let cancelled = media("/cancelled.mp3")
    let kept = media("/kept.mp3")
    let doomed = Task { await fetch(cancelled) }
    let survivor = Task { await fetch(kept) }

    XCTAssertTrue(
      server.wait {
        self.server.bodyBytesSent(for: "/cancelled.mp3") == 30_000
          && self.server.bodyBytesSent(for: "/kept.mp3") == 30_000
      })
    doomed.cancel()
    let ended = await doomed.value
    XCTAssertEqual(ended, .failure(.cancelled(url: cancelled.url)))

    server.releaseStalls()
    let carriedOn = await survivor.value
    XCTAssertEqual(carriedOn, .success(body(2)))
  }

  /// Each failure comes back as what it was, beside a transfer that succeeds in the same batch.
  func testEachFailureIsReportedAsWhatWentWrong() async throws {
    server.set("/ok.mp3", .data(body(3)))
    server.set("/missing.mp3", .status(404))
    server.set("/big.mp3", .data(body(4)))
    let refused = TransferRequest(url: "http://127.0.0.1:9/ep.mp3", options: TransferOptions())

    let (okRequest, missingRequest, bigRequest) = (
      media("/ok.mp3"), media("/missing.mp3"), media("/big.mp3")
    )
    async let ok = fetch(okRequest)
    async let missing = fetch(missingRequest)
    async let big = fetch(bigRequest, limit: 1_000)
    async let nobody = fetch(refused)
    let results = await (ok, missing, big, nobody)

    XCTAssertEqual(results.0, .success(body(3)))
    let notFound = TransferError.httpStatus(
      url: server.url("/missing.mp3"), status: 404, retryAfter: nil)
    XCTAssertEqual(results.1, .failure(notFound))
    XCTAssertEqual(results.2, .failure(.tooLarge(url: server.url("/big.mp3"), limit: 1_000)))
    guard case .failure(.network(let url, _)) = results.3 else {
      return XCTFail("a refused connection: \(results.3)")
    }
    XCTAssertEqual(url, refused.url)
  }

  /// A server that sends nothing more is given up on by the transfer itself after its stall
  /// timeout: the body is held for good, so only the watchdog can end it.
  func testATransferThatStopsReceivingIsAbandonedAsTimedOut() async throws {
    server.set("/stuck.mp3", .data(body(5)).stalling(after: 10_000, seconds: nil))
    let request = media("/stuck.mp3", options: TransferOptions(stallTimeout: 1))

    let result = await fetch(request)

    XCTAssertEqual(result, .failure(.timedOut(url: request.url, seconds: 1)))
    XCTAssertEqual(server.requests(for: "/stuck.mp3").count, 1, "the engine itself never retries")
  }

  /// A stall timeout of any length a user can give (`--stall-timeout`, any positive number of
  /// seconds) is taken as given: a transfer under the longest one runs as any other.
  func testTheLongestStallTimeoutIsTakenAsGiven() async throws {
    server.set("/long.mp3", .data(body(3)))
    let request = media("/long.mp3", options: TransferOptions(stallTimeout: .max))

    let result = await fetch(request)
    XCTAssertEqual(result, .success(body(3)))
  }

  /// Stopping everything (the Ctrl-C path) ends every transfer as cancelled once each sink has
  /// written out what arrived, and the engine still runs what comes after.
  func testStoppingEverythingFlushesEachSinkAndTheEngineCarriesOn() async throws {
    let paths = ["/a.mp3", "/b.mp3", "/c.mp3"]
    for (index, path) in paths.enumerated() {
      server.set(path, .data(body(index)).stalling(after: 40_000, seconds: nil))
    }
    let sinks = paths.map { _ in CountingSink() }
    let arrived = paths.map { expectation(description: "the first bytes of \($0) arrive") }
    for (sink, expectation) in zip(sinks, arrived) { sink.onFirstBytes = { expectation.fulfill() } }
    let transfers = zip(paths, sinks).map { path, sink in
      let request = media(path)
      return Task { () -> TransferError? in
        do {
          _ = try await HTTPClient().perform(request, into: sink)
          return nil
        } catch {
          return error as? TransferError
        }
      }
    }

    await fulfillment(of: arrived, timeout: 60)
    HTTPClient.stopAllTransfers(timeout: .seconds(60))

    for (path, transfer) in zip(paths, transfers) {
      let error = await transfer.value
      XCTAssertEqual(error, .cancelled(url: server.url(path)))
    }
    for (path, sink) in zip(paths, sinks) {
      XCTAssertGreaterThan(sink.received, 0, path)
      XCTAssertEqual(sink.flushed, sink.received, "\(path): bytes received but not written out")
    }
    server.set("/after.mp3", .data(body(9)))
    let afterRequest = media("/after.mp3")
    let after = await fetch(afterRequest)
    XCTAssertEqual(after, .success(body(9)))
  }

  /// Connections are kept for the run: transfers one after another to one server, each with
  /// an easy handle of its own, all go over the connection the first one opened.
  /// Where a kept easy handle goes: to the next request with its profile as it is (libcurl
  /// keeps options between transfers), and never to a request that sets its own buffer size,
  /// which libcurl refuses on a handle that kept a buffer (over HTTPS every episode of a sync
  /// once failed so). Handles are taken and given back by hand here, last in, first out.
  func testAKeptHandleGoesOnlyWhereItsSetupFits() throws {
    try CurlLibrary.prepare(for: "https://feeds.example.com/a.xml")
    let engine = TransferEngine.shared
    let feed = TransferRequest(url: "https://feeds.example.com/a.xml", options: TransferOptions())
    let episode = TransferRequest(
      url: "https://cdn.example.com/e.mp3", options: TransferOptions(), acceptsCompression: false,
      bulk: true)

    let first = try XCTUnwrap(engine.takeHandle(for: feed))
    engine.recycle(first.handle, profile: feed.handleProfile)
    let again = try XCTUnwrap(engine.takeHandle(for: feed))
    XCTAssertEqual(again.handle, first.handle, "the same profile's handle")
    XCTAssertTrue(again.isSetUp, "taken as it is")

    engine.recycle(again.handle, profile: nil)
    let download = try XCTUnwrap(engine.takeHandle(for: episode))
    XCTAssertNotEqual(download.handle, first.handle, "a bulk download got a used handle")
    XCTAssertFalse(download.isSetUp)
    XCTAssertNil(episode.handleProfile)
    engine.recycle(download.handle, profile: nil)
  }

  func testTransfersOneAfterAnotherUseTheFirstOnesConnection() async throws {
    for index in 0..<3 { server.set("/\(index).mp3", .data(body(index, size: 1_000))) }
    for index in 0..<3 {
      let result = await fetch(media("/\(index).mp3"))
      XCTAssertEqual(result, .success(body(index, size: 1_000)))
    }
    let connections = server.requests.map(\.connection)
    XCTAssertEqual(connections.count, 3)
    XCTAssertEqual(Set(connections).count, 1, "the requests came on connections \(connections)")
  }
}

/// Runs `request` into memory; the body, or the error it ended with.
private func fetch(_ request: TransferRequest, limit: Int64 = 256 << 20) async -> Result<
  Data, TransferError
> {
  let sink = MemorySink(url: request.url, limit: limit)
  do {
    _ = try await HTTPClient().perform(request, into: sink)
    return .success(sink.body)
  } catch let error as TransferError {
    return .failure(error)
  } catch {
    return .failure(.setup(url: request.url, reason: "not a TransferError: \(error)"))
  }
}

/// Counts what a transfer hands over and what it had flushed.
private final class CountingSink: TransferSink, @unchecked Sendable {
  private let lock = NSLock()
  private var receivedBytes = 0
  private var flushedBytes = 0
  var onFirstBytes: (@Sendable () -> Void)?

  var received: Int { lock.withLock { receivedBytes } }
  var flushed: Int { lock.withLock { flushedBytes } }

  func receive(head: ResponseHead) throws {}

  func receive(_ bytes: UnsafeRawBufferPointer) throws {
    let first = lock.withLock { () -> Bool in
      receivedBytes += bytes.count
      return receivedBytes == bytes.count
    }
    if first { onFirstBytes?() }
  }

  func flush() throws {
    lock.withLock { flushedBytes = receivedBytes }
  }
}
