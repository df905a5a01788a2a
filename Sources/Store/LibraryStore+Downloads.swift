import Basics
import Foundation
internal import GRDB
import Model

/// The persisted downloads: one row per episode (see `DownloadKey`).
extension LibraryStore {
  /// The download fetched from `url` (the first by key, when two feeds list the same file).
  public func download(url: String) throws -> DownloadRecord? {
    try read { db in try DownloadRecordRow.all(db, url: url).first?.record }
  }

  /// Every known download, most recently updated first.
  public func allDownloads() throws -> [DownloadRecord] {
    try read { db in
      try Array(
        DownloadRecordRow.order(Column("updatedAt").desc, Column("url")).fetchCursor(db)
          .map { $0.record })
    }
  }

  public func downloads(in states: Set<DownloadState>) throws -> [DownloadRecord] {
    try read { db in
      try Array(
        DownloadRecordRow
          .filter(states.map(\.rawValue).contains(Column("state")))
          .order(Column("updatedAt").desc, Column("url"))
          .fetchCursor(db).map { $0.record })
    }
  }
}
