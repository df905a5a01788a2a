import Fetching
import Foundation
import Transfer
import XCTest

/// Which failed attempts get another, and after how long: what decides whether a flaky server
/// costs a user a retry or the episode. One rule for episodes (as `DownloadOptions` set it) and
/// feeds alike.
final class RetryPolicyTests: XCTestCase {
  private let url = "http://example.com/ep.mp3"

  private func policy(attempts: Int = 3, delay: Duration = .seconds(1), maxRetryAfter: Int = 120)
    -> RetryPolicy
  {
    var options = DownloadOptions()
    options.attempts = attempts
    options.retryDelay = delay
    options.maxRetryAfter = maxRetryAfter
    return options.retry
  }

  private func status(_ code: Int, retryAfter: Int? = nil) -> TransferError {
    .httpStatus(url: url, status: code, retryAfter: retryAfter)
  }

  func testTheDefaultsAreThreeTriesOneSecondApartThenTwo() {
    let policy = DownloadOptions().retry
    XCTAssertEqual(policy, RetryPolicy(), "episodes and feeds have the same defaults")
    let dropped = TransferError.network(url: url, reason: "connection lost")
    XCTAssertEqual(policy.delay(after: dropped, attempt: 1), .seconds(1))
    XCTAssertEqual(policy.delay(after: dropped, attempt: 2), .seconds(2))
    XCTAssertNil(policy.delay(after: dropped, attempt: 3), "the third failure is the last")
  }

  func testTheBackOffDoublesUpToTheLastAttempt() {
    let policy = policy(attempts: 5, delay: .milliseconds(250))
    let error = TransferError.timedOut(url: url, seconds: 30)
    let delays = (1...5).map { policy.delay(after: error, attempt: $0) }
    XCTAssertEqual(
      delays, [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), nil])
  }

  func testTransientTransferFailuresAreRetried() {
    let policy = policy()
    let transient: [TransferError] = [
      .timedOut(url: url, seconds: 30),
      .network(url: url, reason: "connection lost"),
      status(500), status(502), status(503), status(504), status(408), status(429),
    ]
    for error in transient {
      XCTAssertEqual(policy.delay(after: error, attempt: 1), .seconds(1), "\(error)")
    }
  }

  /// What another try cannot fix is final at once: no second request, no wait.
  func testPermanentTransferFailuresAreNotRetried() {
    let policy = policy()
    let final: [TransferError] = [
      status(400), status(401), status(403), status(404), status(410), status(416),
      .unknownHost(url: url, reason: "could not resolve"),
      .unsupportedScheme(url: "ftp://example.com/ep.mp3"),
      .redirectRefused(url: url, location: "file:///etc/passwd"),
      .tooManyRedirects(url: url, limit: 10),
      .tooLarge(url: url, limit: 16),
      .cancelled(url: url),
      .tls(url: url, reason: "certificate expired"),
      .invalidURL("http://"),
      .setup(url: url, reason: "refused"),
    ]
    for error in final {
      XCTAssertNil(policy.delay(after: error, attempt: 1), "\(error)")
    }
  }

  /// A body that came short, changed, empty or compressed may come right next time; a disk
  /// that is full, an HTML page or another process holding the file will not.
  func testDownloadFailuresAreRetriedOnlyWhenTransient() {
    let policy = policy()
    let transient: [DownloadError] = [
      .lengthMismatch(url: url, expected: 100, received: 50),
      .changedOnServer(url: url, reason: "new ETag"),
      .emptyBody(url: url),
      .tooSmall(url: url, received: 10, reason: "fewer than announced"),
      .compressed(url: url, how: "gzip"),
    ]
    for error in transient {
      XCTAssertEqual(policy.delay(after: error, attempt: 2), .seconds(2), "\(error)")
    }
    let final: [DownloadError] = [
      .htmlInsteadOfMedia(url: url),
      .diskFull(path: "/tmp/x"),
      .cannotWrite(path: "/tmp/x", reason: "read-only"),
      .busyElsewhere(url: url),
      .cannotRecord(
        url: url, .databaseFailed(path: "/tmp/library.sqlite", reason: "database is locked")),
    ]
    for error in final {
      XCTAssertNil(policy.delay(after: error, attempt: 1), "\(error)")
    }
  }

  func testAnyOtherErrorIsFinal() {
    XCTAssertNil(policy().delay(after: CancellationError(), attempt: 1))
    XCTAssertNil(policy().delay(after: POSIXError(.EIO), attempt: 1))
  }

  /// The server's own word wins over the back-off, whatever the attempt.
  func testRetryAfterIsWaitedInsteadOfTheBackOff() {
    let policy = policy()
    XCTAssertEqual(policy.delay(after: status(429, retryAfter: 7), attempt: 1), .seconds(7))
    XCTAssertEqual(policy.delay(after: status(503, retryAfter: 30), attempt: 2), .seconds(30))
    XCTAssertEqual(policy.delay(after: status(429, retryAfter: 0), attempt: 1), .zero)
  }

  /// Up to the cap it is a wait; past it the run gives the episode up rather than sit there.
  func testRetryAfterIsCapped() {
    let policy = policy(maxRetryAfter: 120)
    XCTAssertEqual(policy.delay(after: status(429, retryAfter: 120), attempt: 1), .seconds(120))
    XCTAssertNil(policy.delay(after: status(429, retryAfter: 121), attempt: 1))
    XCTAssertNil(policy.delay(after: status(503, retryAfter: 86_400), attempt: 1))
  }

  func testRetryAfterDoesNotBuyAnAttemptPastTheLast() {
    XCTAssertNil(policy(attempts: 2).delay(after: status(429, retryAfter: 1), attempt: 2))
  }

  /// A Retry-After on a status that is final anyway changes nothing.
  func testRetryAfterOnAPermanentStatusIsNotRetried() {
    XCTAssertNil(policy().delay(after: status(404, retryAfter: 5), attempt: 1))
  }

  func testOneAttemptMeansNoRetry() {
    let policy = policy(attempts: 1)
    XCTAssertNil(policy.delay(after: TransferError.timedOut(url: url, seconds: 30), attempt: 1))
    XCTAssertNil(policy.delay(after: status(429, retryAfter: 1), attempt: 1))
  }

  // MARK: - run

  /// Counts the calls of a body that fails with `errors` in turn, then returns its call count.
  private final class Attempts: @unchecked Sendable {
    var errors: [any Error]
    var calls = 0
    init(_ errors: [any Error]) { self.errors = errors }

    func next() throws -> Int {
      calls += 1
      if !errors.isEmpty { throw errors.removeFirst() }
      return calls
    }
  }

  func testRunTriesATransientFailureAgainUpToTheLastAttempt() async throws {
    let policy = policy(attempts: 3, delay: .zero)
    let dropped = TransferError.network(url: url, reason: "connection lost")
    let twice = Attempts([dropped, dropped])
    let third = try await policy.run { try twice.next() }
    XCTAssertEqual(third, 3)

    let thrice = Attempts([dropped, dropped, status(503)])
    do {
      _ = try await policy.run { try thrice.next() }
      XCTFail("the third failure is the last")
    } catch {
      XCTAssertEqual(error as? TransferError, status(503), "the last failure is thrown")
    }
    XCTAssertEqual(thrice.calls, 3)
  }

  func testRunThrowsAFinalFailureAtOnce() async {
    let missing = Attempts([status(404)])
    do {
      _ = try await policy(delay: .zero).run { try missing.next() }
      XCTFail("a 404 is final")
    } catch {
      XCTAssertEqual(error as? TransferError, status(404))
    }
    XCTAssertEqual(missing.calls, 1)
  }

  /// A fresh start (the file changed on the server, its bytes dropped) is tried at once and
  /// costs no attempt: with one attempt, two fresh starts still end in success.
  func testAFreshStartIsNotAFailedAttempt() async throws {
    let changed = DownloadError.changedOnServer(url: url, reason: "new ETag")
    let body = Attempts([changed, changed])
    var startsOver = 0
    let calls = try await policy(attempts: 1, delay: .zero).run {
      try body.next()
    } startingOver: { error in
      guard case .changedOnServer? = error as? DownloadError else { return false }
      startsOver += 1
      return true
    }
    XCTAssertEqual(calls, 3)
    XCTAssertEqual(startsOver, 2)
  }
}
