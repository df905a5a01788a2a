import Foundation

/// Streams one response into a `PartialFile`, deciding from the status line whether the bytes
/// continue what is on disk (206), replace it (200) or must be refused (errors, HTML pages).
final class DownloadSink: TransferSink {
  private let url: String
  private let file: PartialFile
  private let requestedOffset: Int64
  /// The file size a previous run saw; a resumed response for another size is another file.
  private let expectedTotal: Int64?
  private let acceptsHTML: Bool
  private let progress: ProgressBuffer
  private let onHead: (ResponseHead, _ total: Int64?) -> Void
  private var checkedForHTML = false

  private(set) var written: Int64
  private(set) var total: Int64?

  init(
    url: String, file: PartialFile, offset: Int64, expectedTotal: Int64?, acceptsHTML: Bool,
    progress: ProgressBuffer,
    onHead: @escaping (ResponseHead, Int64?) -> Void
  ) {
    self.url = url
    self.file = file
    self.requestedOffset = offset
    self.expectedTotal = expectedTotal
    self.written = offset
    self.acceptsHTML = acceptsHTML
    self.progress = progress
    self.onHead = onHead
  }

  func receive(head: ResponseHead) throws {
    guard (200..<300).contains(head.status) else {
      throw TransferError.httpStatus(url: url, status: head.status, retryAfter: head.retryAfter)
    }
    if head.status == 206 {
      try continueAfterPartialContent(head)
    } else {
      // A full body: the server ignored Range, or If-Range said the file changed.
      try file.truncate(to: 0)
      written = 0
      total = head.headers["content-encoding"] == nil ? head.contentLength : nil
    }
    let type = head.headers["content-type"]?.lowercased() ?? ""
    if type.contains("text/html") && !acceptsHTML {
      throw DownloadError.htmlInsteadOfMedia(url: url)
    }
    progress.start(url, resumingAt: written, total: total)
    onHead(head, total)
  }

  private func continueAfterPartialContent(_ head: ResponseHead) throws {
    let header = head.headers["content-range"] ?? ""
    guard let range = ContentRange(header), range.start == requestedOffset else {
      throw DownloadError.badContentRange(url: url, header: header.isEmpty ? "missing" : header)
    }
    if let expectedTotal, let actual = range.total, actual != expectedTotal {
      try file.truncate(to: 0)
      written = 0
      throw RestartFromZero.needed
    }
    total = range.total
    written = requestedOffset
  }

  func receive(_ bytes: UnsafeRawBufferPointer) throws {
    if !checkedForHTML {
      checkedForHTML = true
      if written == 0 && !acceptsHTML && HTMLSniffer.looksLikeHTML(bytes) {
        throw DownloadError.htmlInsteadOfMedia(url: url)
      }
    }
    try file.append(bytes)
    written += Int64(bytes.count)
  }

  /// The end of a burst: the bytes go to disk and the progress buffer hears of them once.
  func flush() throws {
    try file.flush()
    progress.progress(url, bytes: written)
  }
}

/// `Content-Range: bytes 100-199/1000` (the total may be `*`).
struct ContentRange: Equatable {
  var start: Int64
  var end: Int64
  var total: Int64?

  init?(_ header: String) {
    let text = header.trimmingCharacters(in: .whitespaces)
    guard text.lowercased().hasPrefix("bytes ") else { return nil }
    let spec = text.dropFirst(6)
    let parts = spec.split(separator: "/", maxSplits: 1)
    let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
    guard parts.count == 2, bounds.count == 2, let start = Int64(bounds[0]),
      let end = Int64(bounds[1]),
      start <= end
    else { return nil }
    self.start = start
    self.end = end
    self.total = Int64(parts[1])
  }
}

/// Recognises an HTML error page that a server sent with an audio-ish or missing content type.
enum HTMLSniffer {
  static func looksLikeHTML(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    // Skip a UTF-8 byte order mark and leading white space.
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    let head = String(decoding: bytes[index..<min(bytes.count, index + 15)], as: UTF8.self)
      .lowercased()
    return head.hasPrefix("<!doctype html") || head.hasPrefix("<html") || head.hasPrefix("<head")
  }
}
