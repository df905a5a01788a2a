import Basics
import Foundation
import Model
import Store
import Transfer

/// The one writer of one download's row while it runs (from `DownloadRows.start`, which begins
/// it, or leaves the begin for this to write with its first move). Everything the download learns goes through here: the response head (handed over from
/// the transfer thread, written from a task, never on that thread), progress about once a
/// second, and how it ended. Each write is a move of `DownloadTransition` (progress, pause or
/// fail, finish), which the store checks against the row as it stands: the store's transition
/// executor is the only code that writes a download's row, and this is the only code that asks
/// it to while one runs.
///
/// Writes on the download's own path throw. Writes from the side (the head, progress) cannot
/// throw into the transfer, so their first failure is kept and `check()` raises it when the
/// attempt ends: a library that cannot record a download fails it rather than forgetting it.
package final class DownloadRow: @unchecked Sendable {
  private let store: LibraryStore
  package let key: DownloadKey
  private let lock = NSLock()
  private var record: DownloadRecord
  private var sideFailure: Error?
  private var savedBytes: Int64 = -1
  /// What the last response said once its body came in whole, kept in memory for the finish
  /// or failure to write (`noteCompleted`).
  private var completed: DownloadProgress?
  /// Set once the download ended (done or failed): a late side write must never turn a
  /// finished row back into a running one.
  private var ended = false
  /// Set once the transfer is over: progress notes stop then (`stopNotes`).
  private var notesStopped = false
  /// The begin `DownloadRows.start` left unwritten: the first write carries it, in its own
  /// transaction, so a download that only finishes writes its row once.
  private var unwritten: DownloadTransition?

  /// The row as `DownloadRows.start` began it (`unwritten`: the begin, not written yet).
  package init(
    store: LibraryStore, begun record: DownloadRecord, unwritten: DownloadTransition? = nil
  ) {
    self.store = store
    self.key = record.key
    self.record = record
    self.unwritten = unwritten
    savedBytes = record.bytes
  }

  package var current: DownloadRecord { lock.withLock { record } }

  /// The resume plan needs the validators and size the bytes on disk were fetched with.
  package var resumeValidator: String? {
    let record = current
    if let etag = record.etag, !etag.hasPrefix("W/") { return etag }
    return record.lastModified
  }

  /// What a response head says about the file: its validators and size. Saved as soon as it
  /// arrives, not when the attempt ends: after a kill mid-body, these let the next run resume.
  package func noteHead(_ head: ResponseHead, total: Int64?, bytes: Int64) {
    side(.progress(DownloadProgress(bytes: bytes, head: Self.note(head, total: total))))
  }

  /// Progress for `podcast status` in other processes; skipped when nothing changed.
  package func noteProgress(bytes: Int64) {
    do {
      try lock.withLock {
        guard !notesStopped, !ended, savedBytes != bytes else { return }
        try write(.progress(DownloadProgress(bytes: bytes)))
        savedBytes = record.bytes
      }
    } catch {
      lock.withLock { sideFailure = sideFailure ?? error }
    }
  }

  /// No progress note is written once this returns (one being written finishes first).
  package func stopNotes() {
    lock.withLock { notesStopped = true }
  }

  /// An attempt ended: what the server said and how far it got.
  package func noteAttempt(head: (ResponseHead, Int64?)?, bytes: Int64) throws {
    try change(.progress(Self.progress(head: head, bytes: bytes)))
  }

  /// The body came in whole: noted in memory only, for `finish` or `fail` to write with the
  /// rest (one write per download fewer). Nothing is lost to a kill before either: the head's
  /// validators and size are saved already (`noteHead`), and a resume starts from the bytes
  /// on disk, never from this count.
  package func noteCompleted(head: (ResponseHead, Int64?)?, bytes: Int64) {
    lock.withLock {
      guard !ended else { return }
      completed = Self.progress(head: head, bytes: bytes)
    }
  }

  /// The bytes on disk belong to no known version any more.
  package func forgetValidators() throws {
    try change(.progress(.restart))
  }

  /// The partial file's first `length` bytes are synced, or (lower than before) all the row
  /// may vouch for now: a durable write either way (see `DurableLength`).
  package func recordDurable(_ length: Int64) throws {
    try change(.checkpoint(durableBytes: length))
  }

  /// Raises the first failed side write.
  package func check() throws {
    if let error = lock.withLock({ sideFailure }) { throw error }
  }

  package func finish(file: String, bytes: Int64, episode: SubscriptionEpisode?) throws {
    try lock.withLock {
      let finished = try DownloadRows(store: store).recordFinished(
        key, file: file, bytes: bytes, progress: completed, episode: episode, after: unwritten)
      if let finished { record = finished }
      unwritten = nil
      ended = true
    }
  }

  /// What its finish batch records for this download (`FinishBatch`), the file still to be
  /// placed. Asked once the transfer ended: no side write can come any more.
  package func finishing(bytes: Int64, episode: SubscriptionEpisode?) -> FinishedDownload {
    lock.withLock {
      FinishedDownload(
        key: key, bytes: bytes, progress: completed, episode: episode, unwritten: unwritten)
    }
  }

  /// The batch recorded it done: `finished` is the row after it.
  package func recorded(_ finished: DownloadRecord?) {
    lock.withLock {
      if let finished { record = finished }
      unwritten = nil
      ended = true
    }
  }

  /// `state`: paused (interrupted) or failed.
  package func fail(state: DownloadState, reason: String) throws {
    try lock.withLock {
      guard !ended, record.state == .downloading else { return }
      ended = true
      let move: DownloadTransition =
        state == .paused ? .pause(reason: reason, completed) : .fail(reason: reason, completed)
      try write(move)
    }
  }

  private func change(_ move: DownloadTransition, durably: Bool = false) throws {
    try lock.withLock {
      guard !ended else { return }
      try write(move, durably: durably)
      savedBytes = record.bytes
    }
  }

  /// Writes `move`, carrying the begin if it is still unwritten, and keeps the row after it.
  /// Called under the lock.
  private func write(_ move: DownloadTransition, durably: Bool = false) throws {
    if let next = try DownloadRows(store: store).transition(
      key, move, durably: durably, after: unwritten)
    {
      record = next
    }
    unwritten = nil
  }

  private func side(_ move: DownloadTransition) {
    do {
      try change(move)
    } catch {
      lock.withLock { sideFailure = sideFailure ?? error }
    }
  }

  private static func progress(head: (ResponseHead, Int64?)?, bytes: Int64) -> DownloadProgress {
    DownloadProgress(bytes: bytes, head: head.map { note($0.0, total: $0.1) })
  }

  /// What a head says of the file: its validators (unless a 206 names none: those of the
  /// bytes on disk stay) and its size.
  package static func note(_ head: ResponseHead, total: Int64?) -> DownloadProgress.Head {
    let etag = head.headers["etag"]
    let lastModified = head.headers["last-modified"]
    let validators =
      head.status != 206 || etag != nil || lastModified != nil
      ? Validators(etag: etag, lastModified: lastModified) : nil
    return DownloadProgress.Head(validators: validators, total: total)
  }
}
