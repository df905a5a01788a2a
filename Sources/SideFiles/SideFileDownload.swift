import Basics
import Fetching
import Foundation
import Privacy
import Transfer

/// Fetches one side file (transcript, chapters, cover) the way an episode is fetched: retried
/// on transient failures with the episodes' policy, a dropped body resumed with `Range` and
/// `If-Range`, the length checked against what the server announced, the body checked
/// against what it claims to be. The bytes wait in a nameless file in the partials folder, so
/// a kill leaves nothing anywhere; the caller writes the verified body into place.
package struct SideFileDownload {
  package let url: String
  /// The extension the file is kept under: decides what the body must look like.
  package let fileExtension: String
  /// The feed listing it: a private feed's credentials go to side files on its own host.
  package let feedURL: String?
  package let http: HTTPClient
  package let options: DownloadOptions
  package let limit: Int64
  /// Where the nameless file is made (the library's partials folder).
  package let scratchDirectory: String

  /// What the bytes on disk were fetched as, carried from one attempt to the next.
  private struct Fetched {
    var validator: String?
    var total: Int64?
    var etag: String?
    var lastModified: String?
    var encoded = false
  }

  package func run() async throws(SideFileError) -> Data {
    do {
      try URLPolicy.check(url)
      let file = try PartialFile(anonymousIn: scratchDirectory, describedAs: url)
      let size = try await fetchWithRetries(into: file)
      let body = Data(try file.prefix(Int(size)))
      if let problem = SideFileCheck(url: url, fileExtension: fileExtension).problem(body) {
        throw problem
      }
      return body
    } catch let error as SideFileError {
      throw error
    } catch {
      throw .fetch(reason: String(describing: error))
    }
  }

  private func fetchWithRetries(into file: PartialFile) async throws -> Int64 {
    var fetched = Fetched()
    var restarts = 0
    return try await options.retry.run {
      try await fetchOnce(into: file, fetched: &fetched)
    } startingOver: { error in
      // The bytes on disk were dropped.
      guard case .changedOnServer? = error as? DownloadError, restarts < 2 else { return false }
      restarts += 1
      fetched = Fetched()
      return true
    }
  }

  /// Resumes only a body that came unencoded and whose size or validator is known, as
  /// episodes do; anything else starts over.
  private func basis(_ file: PartialFile, _ fetched: Fetched) throws -> ResumeBasis? {
    let onDisk = try file.seekToEnd()
    guard onDisk > 0, !fetched.encoded, fetched.validator != nil || fetched.total != nil else {
      if onDisk > 0 { _ = try file.truncate(to: 0) }
      return nil
    }
    return ResumeBasis(
      offset: onDisk, total: fetched.total, etag: fetched.etag,
      lastModified: fetched.lastModified)
  }

  private func fetchOnce(into file: PartialFile, fetched: inout Fetched) async throws -> Int64 {
    let basis = try basis(file, fetched)
    if let basis, let total = basis.total, basis.offset == total { return total }
    var request = TransferRequest(url: url, options: http.options)
    request.acceptsCompression = basis == nil
    request.credentials = FeedCredentials.forEnclosure(url, feedURL: feedURL)
    request.rangeStart = basis?.offset
    request.ifRange = basis == nil ? nil : fetched.validator
    let seen = SeenHead()
    let inner = DownloadSink(
      url: url, file: file, resuming: basis, acceptsHTML: true,
      // Side files stay out of the progress bars and `podcast status`.
      progress: ProgressBuffer(),
      onHead: { head, total in seen.set(head, total) })
    let sink = SideFileSink(
      url: url, inner: inner, limit: limit, decodes: request.acceptsCompression)
    do {
      _ = try await http.perform(request, into: sink)
    } catch TransferError.httpStatus(_, 416, _) where basis != nil {
      _ = try file.truncate(to: 0)
      throw DownloadError.changedOnServer(
        url: url, reason: "the server has no byte \(basis?.offset ?? 0) any more")
    } catch {
      Self.note(seen.value, encoded: sink.encoded, into: &fetched)
      throw error
    }
    Self.note(seen.value, encoded: sink.encoded, into: &fetched)
    let size = try file.seekToEnd()
    if let total = inner.total, size != total {
      if size > total { _ = try file.truncate(to: 0) }
      throw DownloadError.lengthMismatch(url: url, expected: total, received: size)
    }
    return size
  }

  private static func note(
    _ seen: (ResponseHead, Int64?)?, encoded: Bool, into fetched: inout Fetched
  ) {
    guard let (head, total) = seen else { return }
    let etag = head.headers["etag"]
    let lastModified = head.headers["last-modified"]
    fetched.etag = etag ?? fetched.etag
    fetched.lastModified = lastModified ?? fetched.lastModified
    fetched.total = total ?? fetched.total
    fetched.encoded = encoded
    // A weak ETag may not be sent as If-Range (RFC 9110 13.1.5).
    if let etag, !etag.hasPrefix("W/") {
      fetched.validator = etag
    } else if let lastModified {
      fetched.validator = lastModified
    }
  }
}
