import Basics

/// Whether a failed attempt is worth another and how long to wait first: one rule for feeds,
/// episodes and the files beside them, so a flaky server gets the same patience from each. A
/// transient failure (a drop, a timeout, a 5xx, a 429, a body cut short) is tried again, up to
/// `attempts` tries in all, after `delay`, doubling each time; a server that says how long to
/// wait (`Retry-After`) is waited for that long, up to `maxRetryAfter` seconds, and one that
/// asks for longer fails for this run instead of holding it up.
public struct RetryPolicy: Sendable, Equatable {
  public var attempts: Int
  public var delay: Duration
  public var maxRetryAfter: Int

  public init(attempts: Int = 3, delay: Duration = .seconds(1), maxRetryAfter: Int = 120) {
    self.attempts = attempts
    self.delay = delay
    self.maxRetryAfter = maxRetryAfter
  }

  /// One try, no second.
  public static let once = RetryPolicy(attempts: 1)

  /// nil when the error is final, or `attempt` was the last; otherwise how long to wait
  /// before the next.
  public func delay(after error: Error, attempt: Int) -> Duration? {
    guard attempt < attempts, (error as? any TransientFailure)?.isTransient == true else {
      return nil
    }
    if case .httpStatus(_, _, let retryAfter?) = error as? TransferError {
      return retryAfter <= maxRetryAfter ? .seconds(retryAfter) : nil
    }
    return delay * (1 << (attempt - 1))
  }

  /// Runs `body` until it returns, trying it again after each failure the policy finds worth
  /// another attempt (`delay(after:attempt:)`), after that wait; the last failure is thrown.
  /// `startOver` sees each failure first: true when it has made a fresh start of what `body`
  /// works on (a file that changed on the server, its bytes dropped), which is tried again at
  /// once and is not a failed attempt.
  public func run<T>(
    _ body: () async throws -> T,
    startingOver startOver: (any Error) throws -> Bool = { _ in false }
  ) async throws -> T {
    var attempt = 1
    while true {
      do {
        return try await body()
      } catch {
        if try startOver(error) { continue }
        guard let delay = delay(after: error, attempt: attempt) else { throw error }
        try await Task.sleep(for: delay)
        attempt += 1
      }
    }
  }
}

/// An error that knows whether trying again may help (`RetryPolicy`).
public protocol TransientFailure: Error {
  var isTransient: Bool { get }
}

extension TransferError: TransientFailure {}
