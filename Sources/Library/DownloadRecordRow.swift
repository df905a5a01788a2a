import Basics
import Foundation
internal import GRDB

/// A `DownloadRecord` as a row of the `downloads` table (see `SubscriptionRow` for why apart).
package struct DownloadRecordRow: FetchableRecord, PersistableRecord {
  package static let databaseTableName = "downloads"

  package var record: DownloadRecord

  package init(_ record: DownloadRecord) {
    self.record = record
  }

  // The lookups a download makes on its way through, as statements prepared once per
  // connection: GRDB's query interface prepares (and authorizes, column by column) on every
  // call, which was a third of a cold sync's instructions.

  /// The columns besides `url`, in the order of `values`: one list for reading, saving and
  /// encoding the row.
  private static let valueColumns = [
    "podcastTitle", "episodeTitle", "state", "bytes", "total", "partialPath", "file", "etag",
    "lastModified", "error", "updatedAt", "episodeKey", "pid", "feedURL", "published", "details",
  ]

  private var values: [(any DatabaseValueConvertible)?] {
    [
      record.podcastTitle, record.episodeTitle, record.state.rawValue, record.bytes, record.total,
      record.partialPath, record.file, record.etag, record.lastModified, record.error,
      record.updatedAt, record.episodeKey, record.pid, record.feedURL, record.published,
      record.details,
    ]
  }

  /// The columns `init(row:)` reads, named: a statement kept prepared must not depend on the
  /// order `*` had when it was prepared.
  package static let selection = (["url"] + valueColumns).joined(separator: ", ")

  private static let updateSQL =
    "UPDATE downloads SET "
    + valueColumns.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE url = ?"

  /// Writes the row, inserting it when `url` has none, with a statement kept prepared:
  /// GRDB's record `save` (every column into a container, then update-or-insert) was a seventh
  /// of a cold sync's user CPU, for two or three saves per download.
  func upsert(_ db: Database) throws {
    try db.cachedStatement(sql: Self.updateSQL).execute(
      arguments: StatementArguments(values + [record.url]))
    if db.changesCount == 0 { try insert(db) }
  }

  /// The download of `url`, if any.
  static func find(_ db: Database, url: String) throws -> DownloadRecordRow? {
    try fetchOne(
      db.cachedStatement(sql: "SELECT \(selection) FROM downloads WHERE url = ?"), arguments: [url])
  }

  /// Finished downloads listed in `feedURL` under any of `keys`.
  static func finished(_ db: Database, feedURL: String, keys: [String]) throws
    -> [DownloadRecordRow]
  {
    let marks = Array(repeating: "?", count: keys.count).joined(separator: ", ")
    let statement = try db.cachedStatement(
      sql: """
        SELECT \(selection) FROM downloads
        WHERE feedURL = ? AND state = ? AND episodeKey IN (\(marks))
        """)
    var arguments: StatementArguments = [feedURL, DownloadState.done.rawValue]
    arguments += StatementArguments(keys)
    return try fetchAll(statement, arguments: arguments)
  }

  init(row: Row) throws {
    record = DownloadRecord(
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
      details: try row.decode(forColumn: "details"))
  }

  func encode(to container: inout PersistenceContainer) {
    container["url"] = record.url
    for (column, value) in zip(Self.valueColumns, values) { container[column] = value }
  }
}
