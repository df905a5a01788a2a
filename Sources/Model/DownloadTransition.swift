import Foundation

/// Every change of a download's row, and the one rule that says whether it may happen: the
/// store writes a `downloads` row only through `outcome(for:...)` (see
/// `LibraryStore+DownloadTransitions.swift`), whoever asks (sync's plan, `subscribe`, the
/// download manager, a running download, pruning, marks).
///
///   (none) ──queue──▶ queued ──begin──▶ downloading ──pause──▶ paused
///                        ▲                 │  ▲     ──fail───▶ failed
///                        └──────queue──────┼──┴──begin── paused, failed, queued
///                                          └──finish──▶ done ──forget──▶ (none)
///
/// plus `relink` (the episode's link changed: the row and its validators move to the new URL,
/// the partial file stays, being named after the key) and `forget` (the row goes). A move the
/// table does not allow is an error that names it, never a silent overwrite; a move that is
/// allowed but has nothing to do (queueing a download another process is running) leaves the
/// row as it is.
package enum DownloadTransition: Sendable, Equatable {
  /// Someone wants the episode: a new row, or one that waits again with the feed's current
  /// link. `pid` set: that process runs it now (the row shows queued); nil: for a later run,
  /// which leaves a begun download's state alone.
  case queue(QueuedDownload)
  /// The process holding the partial file's lock starts fetching, from `bytesOnDisk`.
  case begin(QueuedDownload, pid: Int32, bytesOnDisk: Int64)
  /// A running download's head or progress.
  case progress(DownloadProgress)
  /// Interrupted (Ctrl-C, a kill seen coming): resumable.
  case pause(reason: String, DownloadProgress?)
  case fail(reason: String, DownloadProgress?)
  /// The file is in place: fetched, or a complete one found at its target.
  case finish(file: String, bytes: Int64, DownloadProgress?)
  /// The feed links the episode elsewhere now.
  case relink(url: String)
  case forget(Forgetting)

  /// Why a row goes.
  package enum Forgetting: Sendable, Equatable {
    /// Queued and never begun (no bytes, no live process): marked, unsubscribed, or a first sync
    /// that decides afresh.
    case unstarted
    /// Finished, and its file was pruned or deleted.
    case finished
    /// Queued under this key, when the episode turned out to be done under another row.
    case superseded

    /// The state a row must be in to go this way; nil: any.
    package var from: DownloadState? {
      switch self {
      case .unstarted: .queued
      case .finished: .done
      case .superseded: nil
      }
    }
  }

  /// What the caller knows that the row cannot say.
  package struct Circumstances: Sendable, Equatable {
    /// This process.
    package var pid: Int32
    /// Whether the process the row names is running (this one included).
    package var ownerAlive: Bool
    /// Whether the row's finished file is on disk.
    package var fileExists: Bool
    package var now: Date

    package init(pid: Int32, ownerAlive: Bool, fileExists: Bool, now: Date = Date()) {
      self.pid = pid
      self.ownerAlive = ownerAlive
      self.fileExists = fileExists
      self.now = now
    }
  }

  package enum Outcome: Sendable, Equatable {
    case unchanged
    case write(DownloadRecord)
    case delete
  }

  /// The move's name in error messages.
  package var name: String {
    switch self {
    case .queue: "queue"
    case .begin: "begin"
    case .progress: "note progress on"
    case .pause: "pause"
    case .fail: "fail"
    case .finish: "finish"
    case .relink: "relink"
    case .forget(.unstarted): "forget (as never begun)"
    case .forget(.finished): "forget (as finished)"
    case .forget(.superseded): "forget (as superseded)"
    }
  }

  /// The row after this move from `current` (nil: no row), or the error that says why the move
  /// is not allowed. `key` and `partialPath` are those of a row this move creates.
  package func outcome(
    for current: DownloadRecord?, key: DownloadKey, partialPath: String,
    _ circumstances: Circumstances
  ) throws(LibraryError) -> Outcome {
    let now = circumstances.now
    guard let current else {
      switch self {
      case .queue(let wanted):
        return .write(Self.newRow(wanted, key: key, partialPath: partialPath, now: now))
      case .forget:
        return .unchanged
      default:
        throw illegal(key: key, url: nil, from: nil)
      }
    }
    // A live process is fetching it now (the one holding its partial file's lock): a queue
    // or a relink leaves it to that process; only another process's is not this caller's.
    let running = current.state == .downloading && circumstances.ownerAlive
    let runningElsewhere = running && current.pid != circumstances.pid
    let doneAndThere = current.state == .done && circumstances.fileExists
    var next = current
    switch self {
    case .queue(let wanted):
      if doneAndThere || running { return .unchanged }
      if current.state == .done {
        // Its file is gone: fetched again, as a new episode would be.
        next = Self.newRow(wanted, key: current.key, partialPath: current.partialPath, now: now)
        break
      }
      next.url = wanted.url
      next.feedURL = wanted.feedURL ?? next.feedURL
      next.episodeKey = wanted.identityKeys.first ?? next.episodeKey
      next.published = wanted.published ?? next.published
      // Those sync queued keep the feed's full details; a job may lack what its run left
      // out (`--no-tags`), which must not stick to a later resume.
      next.details = next.details ?? wanted.details
      next.archive = next.archive ?? wanted.archive
      if let pid = wanted.pid {
        next.state = .queued
        next.pid = pid
      }
    case .begin(let wanted, let pid, let bytesOnDisk):
      // The caller holds the partial file's lock: nobody else is fetching it, whatever an
      // old `pid` says.
      if doneAndThere { throw illegal(key: key, url: current.url, from: current.state) }
      if current.state == .done { next.file = nil }
      next.state = .downloading
      next.pid = pid
      next.url = wanted.url
      next.bytes = bytesOnDisk
      next.error = nil
      if let title = wanted.podcastTitle, !title.isEmpty { next.podcastTitle = title }
      if let title = wanted.episodeTitle, !title.isEmpty { next.episodeTitle = title }
      next.feedURL = wanted.feedURL ?? next.feedURL
      next.episodeKey = wanted.identityKeys.first ?? next.episodeKey
      // Kept through `finish`: the folder's feed describes the episode with it. One the row
      // has came from the feed when it was queued; a job after a 304 knows less.
      next.archive = next.archive ?? wanted.archive
    case .progress(let progress):
      guard current.state == .downloading else {
        throw illegal(key: key, url: current.url, from: current.state)
      }
      progress.apply(to: &next)
    case .pause(let reason, let progress), .fail(let reason, let progress):
      guard current.state == .downloading else {
        throw illegal(key: key, url: current.url, from: current.state)
      }
      progress?.apply(to: &next)
      if case .pause = self { next.state = .paused } else { next.state = .failed }
      next.error = reason
      next.pid = nil
    case .finish(let file, let bytes, let progress):
      if doneAndThere || runningElsewhere {
        throw illegal(key: key, url: current.url, from: current.state)
      }
      progress?.apply(to: &next)
      next.state = .done
      next.file = file
      next.bytes = bytes
      next.total = bytes
      next.error = nil
      next.pid = nil
      // Needed only until the file is here; a library keeps thousands of finished rows.
      next.details = nil
    case .relink(let url):
      if current.state == .done || running || current.url == url { return .unchanged }
      next.url = url
    case .forget(let why):
      switch why {
      case .unstarted:
        // Its process gone (a run killed before it began) or never named: nobody will start
        // it but a later run.
        guard current.state == why.from, current.bytes == 0, !circumstances.ownerAlive else {
          throw illegal(key: key, url: current.url, from: current.state)
        }
      case .finished:
        guard current.state == why.from else {
          throw illegal(key: key, url: current.url, from: current.state)
        }
      case .superseded:
        if current.state == .done { return .unchanged }
        if runningElsewhere { throw illegal(key: key, url: current.url, from: current.state) }
      }
      return .delete
    }
    if next == current { return .unchanged }
    next.updatedAt = now
    return .write(next)
  }

  private func illegal(key: DownloadKey, url: String?, from state: DownloadState?) -> LibraryError {
    .illegalDownloadMove(url: url ?? key.text, move: name, from: state?.rawValue)
  }

  private static func newRow(
    _ wanted: QueuedDownload, key: DownloadKey, partialPath: String, now: Date
  ) -> DownloadRecord {
    DownloadRecord(
      key: key, url: wanted.url, podcastTitle: wanted.podcastTitle ?? "",
      episodeTitle: wanted.episodeTitle ?? "", partialPath: partialPath, updatedAt: now,
      episodeKey: wanted.identityKeys.first, pid: wanted.pid, feedURL: wanted.feedURL,
      published: wanted.published, details: wanted.details, archive: wanted.archive)
  }
}
