import Basics
import Foundation

/// Collects a response (a feed, an API answer) in memory, refusing error statuses (unless told
/// to keep them) and bodies past a size limit so a hostile server cannot exhaust memory. Past
/// `spoolAbove` bytes the body moves to a `SpooledBody` file instead, when one can be made.
///
/// Sendable by hand-over, not by locking: the transfer thread alone touches it while the
/// transfer runs, and whoever hears the transfer end reads it after that.
package final class MemorySink: TransferSink, @unchecked Sendable {
  private let url: String
  private let limit: Int64
  private let spoolAbove: Int?
  /// Keeps the body of a 4xx or 5xx answer instead of refusing it: an API's reason for a refusal.
  private let acceptsErrorStatus: Bool
  package private(set) var body = Data()
  private var spool: (descriptor: Int32, count: Int)?

  package init(url: String, limit: Int64, spoolAbove: Int? = nil, acceptsErrorStatus: Bool = false)
  {
    self.url = url
    self.limit = limit
    self.spoolAbove = spoolAbove
    self.acceptsErrorStatus = acceptsErrorStatus
  }

  /// The body once it spilled to disk; `body` is then empty.
  package func takeSpooled() -> SpooledBody? {
    guard let spool else { return nil }
    self.spool = nil
    return SpooledBody(descriptor: spool.descriptor, count: spool.count)
  }

  deinit {
    if let spool { close(spool.descriptor) }
  }

  package func receive(head: ResponseHead) throws {
    if !acceptsErrorStatus, head.status >= 400 || head.status < 200 && head.status != 0 {
      throw TransferError.httpStatus(url: url, status: head.status, retryAfter: head.retryAfter)
    }
    if let length = head.contentLength, length > limit, head.headers["content-encoding"] == nil {
      throw TransferError.tooLarge(url: url, limit: limit)
    }
  }

  package func receive(_ bytes: UnsafeRawBufferPointer) throws {
    let received = spool?.count ?? body.count
    guard Int64(received + bytes.count) <= limit else {
      throw TransferError.tooLarge(url: url, limit: limit)
    }
    if spool == nil, let spoolAbove, received + bytes.count > spoolAbove,
      let descriptor = AnonymousFile.make(prefix: "podcast-feed")
    {
      spool = (descriptor, 0)
      let written = body.withUnsafeBytes { AnonymousFile.write(descriptor, $0, at: 0) }
      guard written else { throw spoolFailed() }
      spool?.count = body.count
      body = Data()
    }
    guard let current = spool else {
      body.append(contentsOf: bytes)
      return
    }
    guard AnonymousFile.write(current.descriptor, bytes, at: current.count) else {
      throw spoolFailed()
    }
    spool?.count += bytes.count
  }

  private func spoolFailed() -> TransferError {
    .network(
      url: url,
      reason: "cannot keep the body in a temporary file (\(String(cString: strerror(errno))))")
  }
}
