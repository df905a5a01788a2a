import Basics
import Foundation
import Model
import Transfer

/// Limits and patience of a batch of downloads.
public struct DownloadOptions: Sendable {
  public var concurrency = ParallelDownloads.defaultConcurrency
  /// Downloads at once from one server: connections, since over HTTP/1.1 each is one. A server
  /// that answered over HTTP/2 takes `HostShares.multiplexedShare` times as many, as streams on
  /// its one connection.
  public var perHost = ParallelDownloads.defaultPerHost
  /// Tries per episode; transient failures (drops, timeouts, 5xx, 429) resume and retry.
  public var attempts = 3
  /// First back-off; doubles each time unless the server sends Retry-After.
  public var retryDelay: Duration = .seconds(1)
  /// A Retry-After longer than this is a failure for this run, not a wait.
  public var maxRetryAfter = 120

  public init() {}

  /// The rule these make (`RetryPolicy`), for episodes and the files beside them.
  public var retry: RetryPolicy {
    RetryPolicy(attempts: attempts, delay: retryDelay, maxRetryAfter: maxRetryAfter)
  }
}
