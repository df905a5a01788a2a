import Foundation

/// Collects a small response (a feed, an API answer) in memory, refusing error statuses and
/// bodies past a size limit so a hostile server cannot exhaust memory.
final class MemorySink: TransferSink {
  private let url: String
  private let limit: Int64
  private(set) var body = Data()

  init(url: String, limit: Int64) {
    self.url = url
    self.limit = limit
  }

  func receive(head: ResponseHead) throws {
    if head.status >= 400 || head.status < 200 && head.status != 0 {
      throw TransferError.httpStatus(url: url, status: head.status, retryAfter: head.retryAfter)
    }
    if let length = head.contentLength, length > limit, head.headers["content-encoding"] == nil {
      throw TransferError.tooLarge(url: url, limit: limit)
    }
  }

  func receive(_ bytes: UnsafeRawBufferPointer) throws {
    guard Int64(body.count + bytes.count) <= limit else {
      throw TransferError.tooLarge(url: url, limit: limit)
    }
    body.append(contentsOf: bytes)
  }
}
