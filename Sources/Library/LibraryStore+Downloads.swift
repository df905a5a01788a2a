import Basics
import Foundation
internal import GRDB

/// The persisted progress buffer: one row per remote URL.
extension LibraryStore {
  public func download(url: String) throws -> DownloadRecord? {
    try read { db in try DownloadRecordRow.find(db, url: url)?.record }
  }

  /// Inserts the record, or replaces the one with the same URL: a running download's own
  /// bookkeeping (owner, validators, bytes so far, a failure).
  ///
  /// Relaxed (see `relaxedWrite`), because none of it vouches for bytes that are durable:
  /// the partial file is only fsynced when it is finished, and a row that lost its latest
  /// save to a power cut is one the downloader already copes with (an older or missing
  /// validator restarts the file or makes the server send it whole, a `downloading` row of a
  /// dead process is paused). The one write that must be durable, the download recorded done
  /// before its partial file is gone, is `recordFinished`, a full write; its fsync also makes
  /// every earlier relaxed save durable, in order.
  public func save(_ record: DownloadRecord) throws {
    try relaxedWrite { db in try DownloadRecordRow(record).upsert(db) }
  }

  /// Every known download, most recently updated first.
  public func allDownloads() throws -> [DownloadRecord] {
    try read { db in
      try Array(
        DownloadRecordRow.order(Column("updatedAt").desc, Column("url")).fetchCursor(db)
          .map(\.record))
    }
  }

  public func downloads(in states: Set<DownloadState>) throws -> [DownloadRecord] {
    try read { db in
      try Array(
        DownloadRecordRow
          .filter(states.map(\.rawValue).contains(Column("state")))
          .order(Column("updatedAt").desc, Column("url"))
          .fetchCursor(db).map(\.record))
    }
  }

  public func removeDownload(url: String) throws {
    _ = try write { db in try DownloadRecordRow.deleteOne(db, key: url) }
  }
}
