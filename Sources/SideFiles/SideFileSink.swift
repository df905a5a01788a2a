import Basics
import Fetching
import Transfer

/// Puts a side file's response through the episode's `DownloadSink` (status, resume by
/// Content-Range, validators), with what differs for small text files: a size cap, and a
/// compressed body libcurl was asked to decode (text shrinks well, so the first request
/// offers compression; resumed requests ask for identity so offsets stay byte offsets).
package final class SideFileSink: TransferSink {
  private let url: String
  private let inner: DownloadSink
  private let limit: Int64
  /// libcurl decodes the body (the request accepted compression).
  private let decodes: Bool
  /// The body came encoded: its announced length and byte offsets are not the file's.
  package private(set) var encoded = false

  package init(url: String, inner: DownloadSink, limit: Int64, decodes: Bool) {
    self.url = url
    self.inner = inner
    self.limit = limit
    self.decodes = decodes
  }

  package func receive(head: ResponseHead) throws {
    var head = head
    if decodes, let coding = head.headers["content-encoding"]?.lowercased(),
      !["", "identity", "none"].contains(coding)
    {
      encoded = true
      head.headers["content-encoding"] = nil
      head.headers["content-length"] = nil
    }
    if let length = head.contentLength, length > limit {
      throw TransferError.tooLarge(url: url, limit: limit)
    }
    try inner.receive(head: head)
  }

  package func receive(_ bytes: UnsafeRawBufferPointer) throws {
    guard inner.written + Int64(bytes.count) <= limit else {
      throw TransferError.tooLarge(url: url, limit: limit)
    }
    try inner.receive(bytes)
  }

  package func flush() throws {
    try inner.flush()
  }
}
