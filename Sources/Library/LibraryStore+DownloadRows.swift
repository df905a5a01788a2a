import Basics
import Foundation
internal import GRDB

#if canImport(Glibc)
  import Glibc
#endif

/// The download rows as the downloader and the listings use them. Every write here throws:
/// a library that cannot record a download must say so, not download it again next time.
extension LibraryStore {
  /// A first row for a download of `url`, with the partial file path the downloader uses.
  public func newDownloadRecord(url: String, podcastTitle: String?, episodeTitle: String?)
    -> DownloadRecord
  {
    DownloadRecord(
      url: url, podcastTitle: podcastTitle ?? "", episodeTitle: episodeTitle ?? "",
      partialPath: paths.partial(for: url))
  }

  /// Shows `records` as queued: new ones are added; failed, paused or abandoned ones wait
  /// again. A row that is done, or being downloaded by a live process, is left alone.
  public func queueDownloads(_ records: [DownloadRecord]) throws {
    try write { db in
      for record in records {
        guard var existing = try DownloadRecordRow.find(db, url: record.url)?.record else {
          try DownloadRecordRow(record).insert(db)
          continue
        }
        let waiting: Set<DownloadState> = [.failed, .paused, .queued]
        guard
          waiting.contains(existing.state)
            || (existing.state == .downloading && !Self.isAlive(existing.pid))
        else { continue }
        existing.state = .queued
        existing.pid = record.pid
        existing.feedURL = record.feedURL ?? existing.feedURL
        existing.episodeKey = record.episodeKey ?? existing.episodeKey
        existing.published = record.published ?? existing.published
        // Those sync queued keep the feed's full details; the job here may lack what its
        // run left out (`--no-tags`), which must not stick to a later resume.
        existing.details = existing.details ?? record.details
        existing.updatedAt = Date()
        try DownloadRecordRow(existing).update(db)
      }
    }
  }

  /// The finished download of this episode whose file is still there: by its URL, else by
  /// any of `keys` (the episode's identity) within the same feed, so a publisher's new URL is
  /// not a new episode (and another feed's GUID "1" is not this one's).
  public func finishedDownload(url: String, keys: [String], feedURL: String?) throws
    -> DownloadRecord?
  {
    try read { db in try Self.finishedDownload(db, url: url, keys: keys, feedURL: feedURL) }
  }

  static func finishedDownload(_ db: Database, url: String, keys: [String], feedURL: String?)
    throws -> DownloadRecord?
  {
    var candidates: [DownloadRecord] = []
    if let byURL = try DownloadRecordRow.find(db, url: url) {
      candidates.append(byURL.record)
    }
    if let feedURL, !keys.isEmpty {
      candidates += try DownloadRecordRow.finished(db, feedURL: feedURL, keys: keys)
        .map(\.record)
    }
    return candidates.first { record in
      record.state == .done
        && record.file.map { FileManager.default.fileExists(atPath: $0) }
          == true
    }
  }

  /// Moves a queued download that has not begun to the episode's new link, and the seen
  /// episode with it, in one transaction, so sync finds it under either name after a kill.
  /// False (nothing changed) when it has begun, or the new link has a download of its own.
  public func relinkQueuedDownload(from old: String, to new: String, _ episode: SeenEpisode)
    throws -> Bool
  {
    try write { db in
      guard var record = try DownloadRecordRow.fetchOne(db, key: old)?.record,
        record.state == .queued, record.bytes == 0, record.pid == nil,
        try !DownloadRecordRow.exists(db, key: new)
      else { return false }
      _ = try DownloadRecordRow.deleteOne(db, key: old)
      record.url = new
      record.partialPath = paths.partial(for: new)
      record.updatedAt = Date()
      try DownloadRecordRow(record).insert(db)
      try SeenEpisodeRow.filter(
        Column("subscriptionId") == episode.subscriptionId && Column("key") == episode.key
      ).updateAll(db, Column("enclosureURL").set(to: new))
      return true
    }
  }

  /// Whether a finished download other than `url`'s owns the file at `path`.
  public func isFileOfAnotherDownload(_ path: String, url: String) throws -> Bool {
    try read { db in
      let other = try db.cachedStatement(
        sql: "SELECT 1 FROM downloads WHERE file = ? AND url != ? LIMIT 1")
      return try Int.fetchOne(other, arguments: [path, url]) != nil
    }
  }

  /// The download is finished: its row says done, and the subscription's episode (sync)
  /// points at the file, in one transaction, so a kill never leaves one without the other.
  /// `replacing` is the link this run queued the episode under, when it turned out to be done
  /// already under another (`download` fetched it before the feed moved it): that row goes in
  /// the same transaction, or it would wait, paused, on every later run.
  public func recordFinished(
    _ record: DownloadRecord, episode: SubscriptionEpisode?, replacing queuedURL: String? = nil
  ) throws {
    try write { db in
      try DownloadRecordRow(record).upsert(db)
      if let episode, let file = record.file {
        // A subscription removed while its episode downloaded has no row to update.
        try db.cachedStatement(
          sql: "UPDATE episodes SET downloadedFile = ? WHERE subscriptionId = ? AND key = ?"
        ).execute(arguments: [file, episode.subscriptionId, episode.key])
      }
      if let queuedURL, queuedURL != record.url {
        try db.cachedStatement(sql: "DELETE FROM downloads WHERE url = ? AND state != ?")
          .execute(arguments: [queuedURL, DownloadState.done.rawValue])
      }
    }
  }

  /// Every download as it stands, for `podcast status`, computed without writing: a row a dead
  /// process left `downloading` (or queued) is paused, with the bytes its partial file holds;
  /// a finished download whose file was pruned or deleted is no longer a download.
  public func downloadsForDisplay() throws -> [DownloadRecord] {
    try allDownloads().compactMap { record in
      var shown = record
      switch record.state {
      case .done:
        guard let file = record.file, FileManager.default.fileExists(atPath: file) else {
          return nil
        }
      case .downloading, .queued:
        // Rows sync queued for a later run have no process; ones a live process holds stay.
        let abandoned =
          record.state == .downloading
          ? !Self.isAlive(record.pid)
          : record.pid != nil && !Self.isAlive(record.pid)
        guard abandoned else { break }
        shown.state = .paused
        shown.pid = nil
        if let onDisk = partialSize(of: record.url) { shown.bytes = onDisk }
      case .paused, .failed:
        if let onDisk = partialSize(of: record.url) { shown.bytes = onDisk }
      }
      return shown
    }
  }

  /// Forgets the finished downloads of files that were pruned or deleted.
  public func forgetFinishedDownloads(files: [String]) throws {
    guard !files.isEmpty else { return }
    try write { db in
      _ = try DownloadRecordRow.filter(files.contains(Column("file"))).deleteAll(db)
    }
  }

  /// Files of finished downloads listed in the feed at `feedURL` (`download` and `sync`).
  public func finishedFiles(feedURL: String) throws -> [String] {
    try read { db in
      try Array(
        DownloadRecordRow.filter(
          Column("feedURL") == feedURL && Column("state") == DownloadState.done.rawValue
        ).fetchCursor(db).compactMap(\.record.file))
    }
  }

  /// Finished downloads whose file is somewhere under `folder` (at any depth), whether or not
  /// the file is still there.
  public func finishedDownloads(under folder: String) throws -> [DownloadRecord] {
    // A range on the indexed path rather than LIKE, whose % and _ a folder name may contain:
    // "0" is the character after "/", so the range is exactly the paths that start "folder/".
    try read { db in
      let statement = try db.cachedStatement(
        sql: """
          SELECT \(DownloadRecordRow.selection) FROM downloads
          WHERE file > ? AND file < ? AND state = ?
          """)
      return try DownloadRecordRow.fetchAll(
        statement, arguments: [folder + "/", folder + "0", DownloadState.done.rawValue]
      ).map(\.record)
    }
  }

  package func partialSize(of url: String) -> Int64? {
    var info = stat()
    return stat(paths.partial(for: url), &info) == 0 ? Int64(info.st_size) : nil
  }

  package static func isAlive(_ pid: Int32?) -> Bool {
    guard let pid, pid > 0 else { return false }
    return kill(pid, 0) == 0 || errno == EPERM
  }
}
