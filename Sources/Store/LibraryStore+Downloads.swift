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

  /// The folders the library's finished downloads are in.
  package func finishedFolders() throws -> Set<String> {
    try read { db in
      var folders: Set<String> = []
      let files = try String.fetchCursor(
        db, sql: "SELECT file FROM downloads WHERE state = ? AND file IS NOT NULL",
        arguments: [DownloadState.done.rawValue])
      while let file = try files.next() {
        folders.insert((file as NSString).deletingLastPathComponent)
      }
      return folders
    }
  }

  /// The files of the downloads recorded done since `date`, with the feeds that listed them.
  package func filesFinished(since date: Date) throws -> [(file: String, feedURL: String?)] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT file, feedURL FROM downloads
          WHERE state = ? AND file IS NOT NULL AND updatedAt >= ?
          """,
        arguments: [DownloadState.done.rawValue, StoredDate(date)]
      ).map { (file: $0["file"], feedURL: $0["feedURL"]) }
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
