import Basics
import Foundation
internal import GRDB
import Model

/// The downloads the library finished: which episode is here already, which file is whose,
/// and what each podcast folder holds (its playlist and feed are made from these).
public struct FinishedDownloads: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  /// The finished download of this episode whose file is still there: by its URL, else by
  /// any of `keys` (the episode's identity) within the same feed, so a publisher's new URL is
  /// not a new episode (and another feed's GUID "1" is not this one's), else within another
  /// feed of the same show (`show`, else what the feed's downloads recorded it to be): one
  /// show under two feed URLs is one set of episodes.
  public func find(url: String, keys: [String], feedURL: String?, show: String? = nil) throws
    -> DownloadRecord?
  {
    try store.lookup { db in try Self.find(db, url: url, keys: keys, feedURL: feedURL, show: show) }
  }

  /// `byURL`: the rows fetched from `url`, when the caller has read them already.
  static func find(
    _ db: Database, url: String, keys: [String], feedURL: String?, show: String? = nil,
    byURL: [DownloadRecord]? = nil
  ) throws -> DownloadRecord? {
    var candidates = try byURL ?? DownloadRecordRow.all(db, url: url).map { $0.record }
    if let feedURL, !keys.isEmpty {
      candidates += try DownloadRecordRow.finished(db, feedURL: feedURL, keys: keys)
        .map { $0.record }
    }
    if let found = candidates.first(where: DownloadRows.hasFile) { return found }
    return try findInOtherFeeds(db, keys: keys, feedURL: feedURL, show: show)
  }

  /// `find`'s last step: the finished download, file still there, of the same episode in
  /// another feed of the show the feed at `feedURL` is (`show`, else what its downloads
  /// recorded it to be), where the identity keys agree.
  static func findInOtherFeeds(
    _ db: Database, keys: [String], feedURL: String?, show: String?
  ) throws -> DownloadRecord? {
    guard let feedURL, !keys.isEmpty, let show = try show ?? Self.show(of: feedURL, db) else {
      return nil
    }
    for other in try Self.feeds(of: show, db) where other != feedURL {
      let rows = try DownloadRecordRow.finished(db, feedURL: other, keys: keys)
      if let found = rows.map(\.record).first(where: DownloadRows.hasFile) { return found }
    }
    return nil
  }

  /// The other feed URLs of the show the feed at `feedURL` is (`show`, else what its
  /// downloads recorded it to be): their finished downloads are this feed's episodes too,
  /// where the identity keys agree.
  public func feedsOfSameShow(as feedURL: String, show: String? = nil) throws -> Set<String> {
    try store.lookup { db in
      guard let show = try show ?? Self.show(of: feedURL, db) else { return [] }
      return Set(try Self.feeds(of: show, db)).subtracting([feedURL])
    }
  }

  /// Notes which show each feed is, as downloads from it are queued: once per feed, not per
  /// download (a first sync queues hundreds from one feed).
  static func recordShows(of queued: [QueuedDownload], _ db: Database) throws {
    var noted: Set<String> = []
    for wanted in queued {
      guard let show = wanted.show, let feedURL = wanted.feedURL, noted.insert(feedURL).inserted
      else { continue }
      try recordShow(show, of: feedURL, db)
    }
  }

  /// Notes which show the feed at `feedURL` is, as a download from it is queued.
  static func recordShow(_ show: String, of feedURL: String, _ db: Database) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO feedShows (feedURL, show) VALUES (?, ?)
        ON CONFLICT (feedURL) DO UPDATE SET show = excluded.show WHERE show != excluded.show
        """
    ).run([.text(feedURL), .text(show)])
  }

  private static func show(of feedURL: String, _ db: Database) throws -> String? {
    try db.cachedStatement(sql: "SELECT show FROM feedShows WHERE feedURL = ?")
      .first([.text(feedURL)]) { $0.text(0) } ?? nil
  }

  private static func feeds(of show: String, _ db: Database) throws -> [String] {
    try db.cachedStatement(sql: "SELECT feedURL FROM feedShows WHERE show = ? ORDER BY feedURL")
      .all([.text(show)]) { $0.text(0) ?? "" }
  }

  /// Whether a finished download other than the one keyed `key` owns the file at `path`.
  public func isFileOfAnother(_ path: String, key: DownloadKey) throws -> Bool {
    try store.lookup { db in
      try db.cachedStatement(sql: "SELECT 1 FROM downloads WHERE file = ? AND key != ? LIMIT 1")
        .first([.text(path), .text(key.text)]) { _ in true } != nil
    }
  }

  /// Files of finished downloads listed in the feed at `feedURL` (`download` and `sync`).
  public func files(feedURL: String) throws -> [String] {
    try store.read { db in
      try Array(
        DownloadRecordRow.filter(
          Column("feedURL") == feedURL && Column("state") == DownloadState.done.rawValue
        ).fetchCursor(db).compactMap(\.record.file))
    }
  }

  /// The finished downloads listed in the feed at `feedURL`, whether or not each file is still
  /// there: what retention counts beside the episodes sync recorded (`download` fetched them).
  public func records(feedURL: String) throws -> [DownloadRecord] {
    try store.read { db in
      try Array(
        DownloadRecordRow.filter(
          Column("feedURL") == feedURL && Column("state") == DownloadState.done.rawValue
        ).fetchCursor(db).map(\.record))
    }
  }

  /// Finished downloads whose file is somewhere under `folder` (at any depth), whether or not
  /// the file is still there.
  public func under(_ folder: String) throws -> [DownloadRecord] {
    try under([folder])[0]
  }

  /// `under(_:)` of each of `folders`, in their order, read together: a run asks it of every
  /// podcast folder it touched.
  public func under(_ folders: [String]) throws -> [[DownloadRecord]] {
    // A range on the indexed path rather than LIKE, whose % and _ a folder name may contain:
    // "0" is the character after "/", so the range is exactly the paths that start "folder/".
    try store.lookup { db in
      let statement = try db.cachedStatement(
        sql: """
          SELECT \(DownloadRecordRow.selection) FROM downloads
          WHERE file > ? AND file < ? AND state = ?
          """)
      return try folders.map { folder in
        try statement.all(
          [.text(folder + "/"), .text(folder + "0"), .text(DownloadState.done.rawValue)],
          DownloadRecordRow.init
        ).map(\.record)
      }
    }
  }

  /// The folders the library's finished downloads are in.
  package func folders() throws -> Set<String> {
    try store.read { db in
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
  package func files(since date: Date) throws -> [(file: String, feedURL: String?)] {
    try store.read { db in
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
}
