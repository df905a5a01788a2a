import Basics
import Transfer

/// Whether a failed attempt is worth another and how long to wait first. Episodes and the
/// files beside them share it, so a flaky server gets the same patience from both.
package struct RetryPolicy {
  package let options: DownloadOptions

  /// nil when the error is final; otherwise how long to wait before resuming.
  package func delay(after error: Error, attempt: Int) -> Duration? {
    guard attempt < options.attempts else { return nil }
    let backoff = options.retryDelay * (1 << (attempt - 1))
    switch error {
    case let error as TransferError where error.isTransient:
      if case .httpStatus(_, _, let retryAfter?) = error {
        return retryAfter <= options.maxRetryAfter ? .seconds(retryAfter) : nil
      }
      return backoff
    case let error as DownloadError where error.isTransient:
      return backoff
    default:
      return nil
    }
  }
  package init(options: DownloadOptions) {
    self.options = options
  }
}
