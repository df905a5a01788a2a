import Basics
import Foundation
import Transfer

/// What the bytes already on disk were fetched as: a resumed response must be the same file.
package struct ResumeBasis: Sendable {
  package var offset: Int64
  package var total: Int64?
  package var etag: String?
  package var lastModified: String?
  package init(offset: Int64, total: Int64? = nil, etag: String? = nil, lastModified: String? = nil)
  {
    self.offset = offset
    self.total = total
    self.etag = etag
    self.lastModified = lastModified
  }
}

/// Streams one response into a `PartialFile`, deciding from the status line whether the bytes
/// continue what is on disk (206), replace it (200) or must be refused (errors, HTML pages,
/// compressed bodies). Runs on the transfer thread: it never touches the database; `onHead`
/// hands the head over to whoever records it.
package final class DownloadSink: TransferSink {
  private let url: String
  private let file: PartialFile
  /// nil: the request asked for the whole file.
  private let basis: ResumeBasis?
  private let acceptsHTML: Bool
  private let progress: ProgressBuffer
  private let onHead: (ResponseHead, _ total: Int64?) -> Void
  private var checkedForHTML = false

  package private(set) var written: Int64
  package private(set) var total: Int64?
  package private(set) var contentType: String?

  package init(
    url: String, file: PartialFile, resuming basis: ResumeBasis?, acceptsHTML: Bool,
    progress: ProgressBuffer,
    onHead: @escaping (ResponseHead, Int64?) -> Void
  ) {
    self.url = url
    self.file = file
    self.basis = basis
    self.written = basis?.offset ?? 0
    self.acceptsHTML = acceptsHTML
    self.progress = progress
    self.onHead = onHead
  }

  package func receive(head: ResponseHead) throws {
    guard (200..<300).contains(head.status) else {
      throw TransferError.httpStatus(url: url, status: head.status, retryAfter: head.retryAfter)
    }
    // Asked for identity: an encoded body's bytes are not the episode, and its offsets are
    // not the file's.
    // ("none" is not a coding, but some servers write it for identity.)
    if let encoding = head.headers["content-encoding"]?.lowercased(),
      !["", "identity", "none"].contains(encoding)
    {
      // Kept when the row vouches for them as synced: they are still the file's.
      _ = try file.truncate(to: 0)
      throw DownloadError.compressed(url: url, how: "Content-Encoding: \(encoding)")
    }
    if head.status == 206 {
      try continueAfterPartialContent(head, basis: basis ?? ResumeBasis(offset: 0))
    } else {
      // A full body: the server ignored Range, or If-Range said the file changed. Bytes the
      // row vouches for as synced are dropped only once it no longer does, which is no
      // write for this thread: the download starts over from its own task instead.
      guard try file.truncate(to: 0) else {
        throw DownloadError.changedOnServer(
          url: url, reason: "the server sent the whole file again; starting again from zero")
      }
      written = 0
      total = head.contentLength
    }
    contentType = head.headers["content-type"]?.lowercased()
    if (contentType ?? "").contains("text/html") && !acceptsHTML {
      throw DownloadError.htmlInsteadOfMedia(url: url)
    }
    progress.start(url, resumingAt: written, total: total)
    onHead(head, total)
  }

  /// A 206 continues the bytes on disk only if it starts where they end and is the same file:
  /// the same validators and size as when they were fetched. A server that ignores If-Range
  /// would otherwise splice two versions into one file; the bytes on disk are dropped instead.
  private func continueAfterPartialContent(_ head: ResponseHead, basis: ResumeBasis) throws {
    let header = head.headers["content-range"] ?? ""
    var mismatch: String?
    if let range = ContentRange(header) {
      if range.start != basis.offset {
        mismatch = "Content-Range \(header) does not continue the \(basis.offset) bytes on disk"
      } else if let expected = basis.total, let actual = range.total, actual != expected {
        mismatch = "its size went from \(expected) to \(actual) bytes"
      }
    } else {
      mismatch = "the resume answer had \(header.isEmpty ? "no" : "a malformed") Content-Range"
    }
    if mismatch == nil, let etag = head.headers["etag"], let old = basis.etag, etag != old {
      mismatch = "ETag \(old) became \(etag)"
    }
    if mismatch == nil, let date = head.headers["last-modified"], let old = basis.lastModified,
      date != old
    {
      mismatch = "Last-Modified \(old) became \(date)"
    }
    if let mismatch {
      // (Kept when the row vouches for them as synced: the task that restarts drops them.)
      _ = try file.truncate(to: 0)
      written = 0
      throw DownloadError.changedOnServer(url: url, reason: mismatch + "; starting again from zero")
    }
    total = ContentRange(header)?.total
    written = basis.offset
  }

  package func receive(_ bytes: UnsafeRawBufferPointer) throws {
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
  package func flush() throws {
    try file.flush()
    progress.progress(url, bytes: written)
  }
}

/// `Content-Range: bytes 100-199/1000` (the total may be `*`).
package struct ContentRange: Equatable {
  package var start: Int64
  package var end: Int64
  package var total: Int64?

  package init?(_ header: String) {
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
package enum HTMLSniffer {
  package static func looksLikeHTML(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    // Skip a UTF-8 byte order mark and leading white space.
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    let head = String(decoding: bytes[index..<min(bytes.count, index + 15)], as: UTF8.self)
      .lowercased()
    return head.hasPrefix("<!doctype html") || head.hasPrefix("<html") || head.hasPrefix("<head")
  }
}
