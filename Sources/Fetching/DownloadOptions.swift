import Basics
import Foundation

/// Limits and patience of a batch of downloads.
public struct DownloadOptions: Sendable {
  public var concurrency = 4
  public var perHost = 2
  /// Tries per episode; transient failures (drops, timeouts, 5xx, 429) resume and retry.
  public var attempts = 3
  /// First back-off; doubles each time unless the server sends Retry-After.
  public var retryDelay: Duration = .seconds(1)
  /// A Retry-After longer than this is a failure for this run, not a wait.
  public var maxRetryAfter = 120

  public init() {}
}
