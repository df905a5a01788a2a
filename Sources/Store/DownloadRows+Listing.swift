import Basics
import Foundation
internal import GRDB
import Model

#if canImport(Glibc)
  import Glibc
#endif

/// The download rows as `podcast status` and a run's sweep of partial files read them.
extension DownloadRows {
  /// The download fetched from `url` (the first by key, when two feeds list the same file).
  public func find(url: String) throws -> DownloadRecord? {
    try store.read { db in try DownloadRecordRow.all(db, url: url).first?.record }
  }

  /// Every known download, most recently updated first.
  public func all() throws -> [DownloadRecord] {
    try store.read { db in
      try Array(
        DownloadRecordRow.order(Column("updatedAt").desc, Column("url")).fetchCursor(db)
          .map { $0.record })
    }
  }

  public func all(in states: Set<DownloadState>) throws -> [DownloadRecord] {
    try store.read { db in
      try Array(
        DownloadRecordRow
          .filter(states.map(\.rawValue).contains(Column("state")))
          .order(Column("updatedAt").desc, Column("url"))
          .fetchCursor(db).map { $0.record })
    }
  }

  /// Every download as it stands, for `podcast status`, computed without writing: a row a dead
  /// process left `downloading` (or queued) is paused, with the bytes its partial file holds;
  /// a finished download whose file was pruned or deleted is no longer a download.
  public func forDisplay() throws -> [DownloadRecord] {
    try all().compactMap { record in
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
          ? record.owner?.isAlive != true
          : record.owner.map { !$0.isAlive } ?? false
        guard abandoned else { break }
        shown.state = .paused
        shown.owner = nil
        if let onDisk = partialSize(of: record) { shown.bytes = onDisk }
      case .paused, .failed:
        if let onDisk = partialSize(of: record) { shown.bytes = onDisk }
      }
      return shown
    }
  }

  /// The bytes the download's partial file holds: under its key's name, else under the
  /// URL's name an older version gave it (until a run takes it over, see `PartialSweep`).
  public func partialSize(of record: DownloadRecord) -> Int64? {
    var info = stat()
    for path in [store.paths.partial(forKey: record.key), store.paths.partial(for: record.url)] {
      if stat(path, &info) == 0 { return Int64(info.st_size) }
    }
    return nil
  }

  /// The key and URL of every download not finished: the rows whose partial files
  /// `PartialSweep` keeps.
  public func unfinished() throws -> [(key: DownloadKey, url: String)] {
    try store.read { db in
      let rows = try Row.fetchCursor(
        db, sql: "SELECT key, url FROM downloads WHERE state != ?",
        arguments: [DownloadState.done.rawValue])
      var found: [(key: DownloadKey, url: String)] = []
      while let row = try rows.next() { found.append((DownloadKey(text: row[0]), row[1])) }
      return found
    }
  }
}
