import Basics
import Foundation
internal import GRDB
import Model

/// A `DownloadRecord` as a row of the `downloads` table (see `SubscriptionRow` for why apart).
/// Read-only here: the one code that writes the table is the store's transition executor
/// (`LibraryStore+DownloadTransitions.swift`), with `DownloadTransition` deciding each write.
struct DownloadRecordRow: FetchableRecord, TableRecord {
  static let databaseTableName = "downloads"

  var record: DownloadRecord

  init(_ record: DownloadRecord) {
    self.record = record
  }

  // The lookups a download makes on its way through, as statements prepared once per
  // connection: GRDB's query interface prepares (and authorizes, column by column) on every
  // call, which was a third of a cold sync's instructions.

  /// The columns besides `key`, in the order of `values`: one list for reading and writing.
  static let valueColumns = [
    "url", "podcastTitle", "episodeTitle", "state", "bytes", "total", "partialPath", "file",
    "etag", "lastModified", "error", "updatedAt", "episodeKey", "pid", "feedURL", "published",
    "details", "archive",
  ]

  var values: [(any DatabaseValueConvertible)?] {
    [
      record.url, record.podcastTitle, record.episodeTitle, record.state.rawValue, record.bytes,
      record.total, record.partialPath, record.file, record.etag, record.lastModified,
      record.error, record.updatedAt, record.episodeKey, record.pid, record.feedURL,
      record.published, record.details, record.archive,
    ]
  }

  /// The columns `init(row:)` reads, named: a statement kept prepared must not depend on the
  /// order `*` had when it was prepared.
  static let selection = (["key"] + valueColumns).joined(separator: ", ")

  /// The download keyed `key`, if any.
  static func find(_ db: Database, key: DownloadKey) throws -> DownloadRecordRow? {
    try fetchOne(
      db.cachedStatement(sql: "SELECT \(selection) FROM downloads WHERE key = ?"),
      arguments: [key.text])
  }

  /// The downloads fetched from `url` (one, unless two feeds list the same file).
  static func all(_ db: Database, url: String) throws -> [DownloadRecordRow] {
    try fetchAll(
      db.cachedStatement(sql: "SELECT \(selection) FROM downloads WHERE url = ? ORDER BY key"),
      arguments: [url])
  }

  /// Downloads listed in `feedURL` under any of `keys`, only finished ones when `finished`.
  static func listed(_ db: Database, feedURL: String, keys: [String], finished: Bool) throws
    -> [DownloadRecordRow]
  {
    let marks = Array(repeating: "?", count: keys.count).joined(separator: ", ")
    let statement = try db.cachedStatement(
      sql: """
        SELECT \(selection) FROM downloads
        WHERE feedURL = ? AND episodeKey IN (\(marks))\(finished ? " AND state = ?" : "")
        ORDER BY key
        """)
    var arguments: StatementArguments = [feedURL]
    arguments += StatementArguments(keys)
    if finished { arguments += [DownloadState.done.rawValue] }
    return try fetchAll(statement, arguments: arguments)
  }

  /// Finished downloads listed in `feedURL` under any of `keys`.
  static func finished(_ db: Database, feedURL: String, keys: [String]) throws
    -> [DownloadRecordRow]
  {
    try listed(db, feedURL: feedURL, keys: keys, finished: true)
  }

  init(row: Row) throws {
    record = DownloadRecord(
      key: DownloadKey(text: try row.decode(forColumn: "key")),
      url: try row.decode(forColumn: "url"),
      podcastTitle: try row.decode(forColumn: "podcastTitle"),
      episodeTitle: try row.decode(forColumn: "episodeTitle"),
      state: try row.decodeRawValue(DownloadState.self, forColumn: "state"),
      bytes: try row.decode(forColumn: "bytes"),
      total: try row.decode(forColumn: "total"),
      partialPath: try row.decode(forColumn: "partialPath"),
      file: try row.decode(forColumn: "file"),
      etag: try row.decode(forColumn: "etag"),
      lastModified: try row.decode(forColumn: "lastModified"),
      error: try row.decode(forColumn: "error"),
      updatedAt: try row.decode(forColumn: "updatedAt"),
      episodeKey: try row.decode(forColumn: "episodeKey"),
      pid: try row.decode(forColumn: "pid"),
      feedURL: try row.decode(forColumn: "feedURL"),
      published: try row.decode(forColumn: "published"),
      details: try row.decode(forColumn: "details"),
      archive: try row.decode(forColumn: "archive"))
  }
}
