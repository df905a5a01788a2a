import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Fetches one episode into its partial file, resuming and retrying, then moves the verified
/// file into the Episodes directory. Only after the move is it recorded as done.
struct EpisodeDownload {
  let job: DownloadJob
  let episodesDirectory: String
  let partialsDirectory: String
  let http: HTTPClient
  let ledger: DownloadLedger?
  let progress: ProgressBuffer
  let options: DownloadOptions

  func run() async -> DownloadOutcome {
    do {
      if let finished = try alreadyDownloaded() { return .alreadyDownloaded(file: finished) }
      try URLPolicy.check(job.url)
      let partialPath = partialsDirectory + "/" + PartialName.forURL(job.url)
      guard let file = try PartialFile(path: partialPath) else {
        throw DownloadError.busyElsewhere(url: job.url)
      }
      do {
        return try await fetchAndFinish(file)
      } catch {
        // Still holding the lock: a failure before the first byte leaves nothing to resume.
        if file.size == 0 { unlink(partialPath) }
        throw error
      }
    } catch {
      return failed(error)
    }
  }

  private func fetchAndFinish(_ file: PartialFile) async throws -> DownloadOutcome {
    var known = try ledger?.entry(for: job.url) ?? LedgerEntry(url: job.url, state: .queued)
    let bytes = try await fetchWithRetries(into: file, known: &known)
    let finalPath = try Finisher.linkIntoPlace(
      file, episodesDirectory: episodesDirectory, relativePath: job.relativePath)
    known.state = .done
    known.bytes = bytes
    known.total = bytes
    known.file = finalPath
    known.error = nil
    try? ledger?.save(known)
    unlink(file.path)
    progress.finish(job.url, bytes: bytes)
    return .downloaded(file: finalPath, bytes: bytes)
  }

  private func alreadyDownloaded() throws -> String? {
    guard let entry = try ledger?.entry(for: job.url), entry.state == .done, let file = entry.file,
      FileManager.default.fileExists(atPath: file)
    else { return nil }
    // A run killed between recording and tidying up leaves the partial name behind.
    let partialPath = partialsDirectory + "/" + PartialName.forURL(job.url)
    if FileManager.default.fileExists(atPath: partialPath),
      (try? PartialFile(path: partialPath)) != nil
    {
      unlink(partialPath)
    }
    progress.finish(job.url, bytes: entry.bytes)
    return file
  }

  private func failed(_ error: Error) -> DownloadOutcome {
    let reason = String(describing: error)
    let interrupted =
      (error as? TransferError).map { if case .cancelled = $0 { true } else { false } } ?? false
    let state: DownloadState = interrupted ? .paused : .failed
    progress.fail(job.url, state: state, error: reason)
    if var entry = (try? ledger?.entry(for: job.url)) ?? nil {
      entry.state = state
      entry.error = reason
      try? ledger?.save(entry)
    }
    return .failed(reason: reason)
  }

  // MARK: Attempts

  private func fetchWithRetries(into file: PartialFile, known: inout LedgerEntry) async throws
    -> Int64
  {
    var attempt = 1
    while true {
      do {
        return try await fetchOnce(into: file, known: &known)
      } catch {
        guard attempt < options.attempts, let delay = retryDelay(after: error, attempt: attempt)
        else {
          throw error
        }
        try await Task.sleep(for: delay)
        attempt += 1
      }
    }
  }

  /// nil when the error is final; otherwise how long to wait before resuming.
  private func retryDelay(after error: Error, attempt: Int) -> Duration? {
    let backoff = options.retryDelay * (1 << (attempt - 1))
    switch error {
    case let error as TransferError where error.isTransient:
      if case .httpStatus(_, _, let retryAfter?) = error {
        return retryAfter <= options.maxRetryAfter ? .seconds(retryAfter) : nil
      }
      return backoff
    case let error as DownloadError where error.isTransient:
      return backoff
    case RestartFromZero.needed:
      return .zero
    default:
      return nil
    }
  }

  private func fetchOnce(into file: PartialFile, known: inout LedgerEntry) async throws -> Int64 {
    let onDisk = try file.seekToEnd()
    let ifRange = Self.ifRangeValidator(known)
    // Without anything that proves the server's file is the one we started, start over.
    let offset = onDisk > 0 && (ifRange != nil || known.total != nil) ? onDisk : 0
    if offset == 0 && onDisk > 0 { try file.truncate(to: 0) }
    if let total = known.total, offset == total, offset > 0 { return offset }

    var request = TransferRequest(url: job.url, options: http.options)
    request.acceptsCompression = false
    request.bulk = true
    request.rangeStart = offset > 0 ? offset : nil
    request.ifRange = ifRange
    let seen = SeenHead()
    let before = known
    let sink = DownloadSink(
      url: job.url, file: file, offset: offset, expectedTotal: offset > 0 ? known.total : nil,
      acceptsHTML: MediaType.isHTML(job.mimeType),
      progress: progress,
      onHead: { [job, ledger] head, total in
        seen.set(head, total)
        // Saved as soon as the head arrives, not when the attempt ends: after a kill -9 or
        // Ctrl-C mid-body, these validators are what lets the next run resume the bytes on disk.
        var entry = before
        Self.note(head, total: total, in: &entry)
        entry.bytes = offset
        entry.state = .downloading
        entry.podcastTitle = job.podcastTitle
        entry.episodeTitle = job.title
        try? ledger?.save(entry)
      })
    do {
      _ = try await http.perform(request, into: sink)
    } catch TransferError.httpStatus(_, 416, _) where offset > 0 {
      try file.truncate(to: 0)
      throw RestartFromZero.needed
    } catch {
      remember(seen, sink: sink, in: &known, state: .paused)
      throw error
    }
    remember(seen, sink: sink, in: &known, state: .downloading)
    return try verify(sink, file: file)
  }

  private func verify(_ sink: DownloadSink, file: PartialFile) throws -> Int64 {
    let size = try file.seekToEnd()
    guard let total = sink.total else { return size }
    if size > total {
      try file.truncate(to: 0)
      throw DownloadError.lengthMismatch(url: job.url, expected: total, received: size)
    }
    guard size == total else {
      throw DownloadError.lengthMismatch(url: job.url, expected: total, received: size)
    }
    return size
  }

  /// Keeps what the server said (validators, total) so a later run can resume safely.
  private func remember(
    _ seen: SeenHead, sink: DownloadSink, in known: inout LedgerEntry, state: DownloadState
  ) {
    if let (head, total) = seen.value { Self.note(head, total: total, in: &known) }
    known.bytes = sink.written
    known.state = state
    known.podcastTitle = job.podcastTitle
    known.episodeTitle = job.title
    try? ledger?.save(known)
  }

  /// What a response head says about the file: its validators and its size.
  static func note(_ head: ResponseHead, total: Int64?, in known: inout LedgerEntry) {
    let etag = head.headers["etag"]
    let lastModified = head.headers["last-modified"]
    if head.status != 206 || etag != nil || lastModified != nil {
      known.etag = etag
      known.lastModified = lastModified
    }
    known.total = total
  }

  /// A strong ETag, else Last-Modified: what `If-Range` accepts.
  static func ifRangeValidator(_ entry: LedgerEntry) -> String? {
    if let etag = entry.etag, !etag.hasPrefix("W/") { return etag }
    return entry.lastModified
  }
}

/// The server no longer has the range we asked for: the bytes on disk are dropped.
enum RestartFromZero: Error {
  case needed
}

/// The response head of the current attempt, handed over from the transfer thread.
final class SeenHead: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: (ResponseHead, Int64?)?

  var value: (ResponseHead, Int64?)? { lock.withLock { stored } }

  func set(_ head: ResponseHead, _ total: Int64?) {
    lock.withLock { stored = (head, total) }
  }
}

/// Partial files are named after their URL, so even without the database a rerun finds them.
enum PartialName {
  static func forURL(_ url: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in url.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(hash, radix: 16) + ".part"
  }
}
