import Basics
import Foundation
import Library
import Transfer

/// The one writer of one download's row in the library. Everything the download learns goes
/// through here: the plan, the response head (handed over from the transfer thread, written
/// from a task, never on that thread), progress about once a second, and how it ended.
///
/// Writes on the download's own path throw. Writes from the side (the head, progress) cannot
/// throw into the transfer, so their first failure is kept and `check()` raises it when the
/// attempt ends: a library that cannot record a download fails it rather than forgetting it.
package final class DownloadRow: @unchecked Sendable {
  private let store: LibraryStore
  private let lock = NSLock()
  private var record: DownloadRecord
  private var sideFailure: Error?
  private var savedBytes: Int64 = -1
  /// Set once the download ended (done or failed): a late side write must never turn a
  /// finished row back into a running one.
  private var ended = false

  package init(store: LibraryStore, record: DownloadRecord) {
    self.store = store
    self.record = record
  }

  package var current: DownloadRecord { lock.withLock { record } }

  /// The resume plan needs the validators and size the bytes on disk were fetched with.
  package var resumeValidator: String? {
    let record = current
    if let etag = record.etag, !etag.hasPrefix("W/") { return etag }
    return record.lastModified
  }

  /// This process owns the download now.
  package func begin(_ job: DownloadJob, bytesOnDisk: Int64) throws {
    try change { record in
      record.state = .downloading
      record.pid = ProcessInfo.processInfo.processIdentifier
      record.bytes = bytesOnDisk
      record.error = nil
      if let title = job.podcastTitle, !title.isEmpty { record.podcastTitle = title }
      if let title = job.title, !title.isEmpty { record.episodeTitle = title }
      record.feedURL = job.feedURL ?? record.feedURL
      record.episodeKey = job.identityKeys.first ?? record.episodeKey
    }
  }

  /// What a response head says about the file: its validators and size. Saved as soon as it
  /// arrives, not when the attempt ends: after a kill mid-body, these let the next run resume.
  package func noteHead(_ head: ResponseHead, total: Int64?, bytes: Int64) {
    side { record in
      Self.note(head, total: total, in: &record)
      record.bytes = bytes
    }
  }

  /// Progress for `podcast status` in other processes; skipped when nothing changed.
  package func noteProgress(bytes: Int64) {
    guard lock.withLock({ savedBytes != bytes }) else { return }
    side { record in record.bytes = bytes }
  }

  /// An attempt ended: what the server said and how far it got.
  package func noteAttempt(head: (ResponseHead, Int64?)?, bytes: Int64) throws {
    try change { record in
      if let (head, total) = head { Self.note(head, total: total, in: &record) }
      record.bytes = bytes
    }
  }

  /// The body came in whole: noted in memory only, for `finish` or `fail` to write with the
  /// rest (one write per download fewer). Nothing is lost to a kill before either: the head's
  /// validators and size are saved already (`noteHead`), and a resume starts from the bytes
  /// on disk, never from this count.
  package func noteCompleted(head: (ResponseHead, Int64?)?, bytes: Int64) {
    lock.withLock {
      guard !ended else { return }
      if let (head, total) = head { Self.note(head, total: total, in: &record) }
      record.bytes = bytes
    }
  }

  /// The bytes on disk belong to no known version any more.
  package func forgetValidators() throws {
    try change { record in
      record.etag = nil
      record.lastModified = nil
      record.total = nil
      record.bytes = 0
    }
  }

  /// Raises the first failed side write.
  package func check() throws {
    if let error = lock.withLock({ sideFailure }) { throw error }
  }

  package func finish(file: String, bytes: Int64, episode: SubscriptionEpisode?) throws {
    try lock.withLock {
      var finished = record
      finished.state = .done
      finished.file = file
      finished.bytes = bytes
      finished.total = bytes
      finished.error = nil
      finished.pid = nil
      // Needed only until the file is here; a library keeps thousands of finished rows.
      finished.details = nil
      finished.updatedAt = Date()
      try store.recordFinished(finished, episode: episode)
      record = finished
      ended = true
    }
  }

  package func fail(state: DownloadState, reason: String) throws {
    try change(ending: true) { record in
      record.state = state
      record.error = reason
      record.pid = nil
    }
  }

  private func change(ending: Bool = false, _ body: (inout DownloadRecord) -> Void) throws {
    try lock.withLock {
      guard !ended else { return }
      if ending { ended = true }
      var next = record
      body(&next)
      next.updatedAt = Date()
      try store.save(next)
      record = next
      savedBytes = next.bytes
    }
  }

  private func side(_ body: (inout DownloadRecord) -> Void) {
    do {
      try change(body)
    } catch {
      lock.withLock { sideFailure = sideFailure ?? error }
    }
  }

  package static func note(_ head: ResponseHead, total: Int64?, in record: inout DownloadRecord) {
    let etag = head.headers["etag"]
    let lastModified = head.headers["last-modified"]
    if head.status != 206 || etag != nil || lastModified != nil {
      record.etag = etag
      record.lastModified = lastModified
    }
    record.total = total
  }
}
