import Basics

/// What a running download learned and its row keeps: the bytes so far and, when a response
/// head arrived, the validators and size the bytes on disk were fetched with.
package struct DownloadProgress: Sendable, Equatable {
  package var bytes: Int64
  package var head: Head?

  /// What one response head said about the file.
  package struct Head: Sendable, Equatable {
    /// The version the bytes belong to; nil when the head said nothing of it (a 206 without
    /// validators), which leaves the ones kept as they are.
    package var validators: Validators?
    package var total: Int64?

    package init(validators: Validators?, total: Int64?) {
      self.validators = validators
      self.total = total
    }
  }

  package init(bytes: Int64, head: Head? = nil) {
    self.bytes = bytes
    self.head = head
  }

  /// The bytes on disk belong to no known version any more: nothing to resume from.
  package static let restart = DownloadProgress(
    bytes: 0, head: Head(validators: Validators(), total: nil))

  func apply(to record: inout DownloadRecord) {
    record.bytes = bytes
    guard let head else { return }
    if let validators = head.validators {
      record.etag = validators.etag
      record.lastModified = validators.lastModified
    }
    record.total = head.total
  }
}
