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
  // connection and run through SQLite's own calls (`Statement.run`): GRDB's query interface
  // prepares (and authorizes, column by column) on every call, and its rows look every
  // column up by name.

  /// The columns besides `key`, in the order of `values`: one list for reading and writing.
  static let valueColumns = [
    "url", "podcastTitle", "episodeTitle", "state", "bytes", "total", "partialPath", "file",
    "etag", "lastModified", "error", "updatedAt", "episodeKey", "pid", "feedURL", "published",
    "details", "archive", "ownerStart", "ownerBoot", "durableBytes", "partialBoot",
  ]

  var values: [SQLValue] {
    [
      .text(record.url), .text(record.podcastTitle), .text(record.episodeTitle),
      .text(record.state.rawValue), .integer(record.bytes), SQLValue(record.total),
      .text(record.partialPath), SQLValue(record.file), SQLValue(record.etag),
      SQLValue(record.lastModified), SQLValue(record.error), SQLValue(record.updatedAt),
      SQLValue(record.episodeKey), SQLValue(record.owner?.pid), SQLValue(record.feedURL),
      SQLValue(record.published), SQLValue(record.details), SQLValue(record.archive),
      SQLValue(record.owner.map { Int64(bitPattern: $0.started) }), SQLValue(record.owner?.boot),
      .integer(record.durableBytes), SQLValue(record.partialBoot),
    ]
  }

  /// The columns whose values differ from `old`'s, with their new values (in `valueColumns`'
  /// order), compared as values: formatting each date to compare its text would cost more than
  /// the rest of a transition.
  func changes(from old: DownloadRecordRow) -> [(column: String, value: SQLValue)] {
    let new = record
    let old = old.record
    var changed: [(column: String, value: SQLValue)] = []
    func note(_ index: Int, _ differs: Bool, _ value: @autoclosure () -> SQLValue) {
      if differs { changed.append((Self.valueColumns[index], value())) }
    }
    note(0, new.url != old.url, .text(new.url))
    note(1, new.podcastTitle != old.podcastTitle, .text(new.podcastTitle))
    note(2, new.episodeTitle != old.episodeTitle, .text(new.episodeTitle))
    note(3, new.state != old.state, .text(new.state.rawValue))
    note(4, new.bytes != old.bytes, .integer(new.bytes))
    note(5, new.total != old.total, SQLValue(new.total))
    note(6, new.partialPath != old.partialPath, .text(new.partialPath))
    note(7, new.file != old.file, SQLValue(new.file))
    note(8, new.etag != old.etag, SQLValue(new.etag))
    note(9, new.lastModified != old.lastModified, SQLValue(new.lastModified))
    note(10, new.error != old.error, SQLValue(new.error))
    note(11, new.updatedAt != old.updatedAt, SQLValue(new.updatedAt))
    note(12, new.episodeKey != old.episodeKey, SQLValue(new.episodeKey))
    note(13, new.owner?.pid != old.owner?.pid, SQLValue(new.owner?.pid))
    note(14, new.feedURL != old.feedURL, SQLValue(new.feedURL))
    note(15, new.published != old.published, SQLValue(new.published))
    note(16, new.details != old.details, SQLValue(new.details))
    note(17, new.archive != old.archive, SQLValue(new.archive))
    note(
      18, new.owner?.started != old.owner?.started,
      SQLValue(new.owner.map { Int64(bitPattern: $0.started) }))
    note(19, new.owner?.boot != old.owner?.boot, SQLValue(new.owner?.boot))
    note(20, new.durableBytes != old.durableBytes, .integer(new.durableBytes))
    note(21, new.partialBoot != old.partialBoot, SQLValue(new.partialBoot))
    return changed
  }

  /// The columns `init(row:)` and `init(_: SQLRow)` read, in this order: a statement kept
  /// prepared must not depend on the order `*` had when it was prepared.
  static let selection = (["key"] + valueColumns).joined(separator: ", ")

  /// The download keyed `key`, if any.
  static func find(_ db: Database, key: DownloadKey) throws -> DownloadRecordRow? {
    try db.cachedStatement(sql: "SELECT \(selection) FROM downloads WHERE key = ?")
      .first([.text(key.text)], DownloadRecordRow.init)
  }

  /// The downloads fetched from `url` (one, unless two feeds list the same file), by key.
  ///
  /// Put in order here rather than by `ORDER BY key`: the index on `url` does not hold the
  /// key, so SQLite sorted every whole row (each column copied into a sorter record) for a
  /// read that almost always finds one, the read a download's start and queue make.
  static func all(_ db: Database, url: String) throws -> [DownloadRecordRow] {
    try byKey(
      db.cachedStatement(sql: "SELECT \(selection) FROM downloads WHERE url = ?")
        .all([.text(url)], DownloadRecordRow.init))
  }

  /// In the order `ORDER BY key` gave: SQLite compares text by its bytes.
  private static func byKey(_ rows: [DownloadRecordRow]) -> [DownloadRecordRow] {
    rows.count < 2
      ? rows
      : rows.sorted { $0.record.key.text.utf8.lexicographicallyPrecedes($1.record.key.text.utf8) }
  }

  /// Downloads listed in `feedURL` under any of `keys`, only finished ones when `finished`, by
  /// key (put in order here, as `all(_:url:)` does).
  static func listed(_ db: Database, feedURL: String, keys: [String], finished: Bool) throws
    -> [DownloadRecordRow]
  {
    let marks = Array(repeating: "?", count: keys.count).joined(separator: ", ")
    let statement = try db.cachedStatement(
      sql: """
        SELECT \(selection) FROM downloads
        WHERE feedURL = ? AND episodeKey IN (\(marks))\(finished ? " AND state = ?" : "")
        """)
    let values =
      [.text(feedURL)] + keys.map { SQLValue.text($0) }
      + (finished ? [.text(DownloadState.done.rawValue)] : [])
    return try byKey(statement.all(values, DownloadRecordRow.init))
  }

  /// Finished downloads listed in `feedURL` under any of `keys`.
  static func finished(_ db: Database, feedURL: String, keys: [String]) throws
    -> [DownloadRecordRow]
  {
    try listed(db, feedURL: feedURL, keys: keys, finished: true)
  }

  /// A row of `selection`, by position.
  init(_ row: SQLRow) throws {
    record = DownloadRecord(
      key: DownloadKey(text: row.text(0) ?? ""),
      url: row.text(1) ?? "",
      podcastTitle: row.text(2) ?? "",
      episodeTitle: row.text(3) ?? "",
      state: try row.rawValue(DownloadState.self, 4),
      bytes: row.integer(5) ?? 0,
      total: row.integer(6),
      partialPath: row.text(7) ?? "",
      file: row.text(8),
      etag: row.text(9),
      lastModified: row.text(10),
      error: row.text(11),
      updatedAt: row.date(12) ?? Date(timeIntervalSince1970: 0),
      episodeKey: row.text(13),
      owner: Self.owner(
        pid: row.integer(14), started: row.integer(19), boot: row.text(20)),
      feedURL: row.text(15),
      published: row.date(16),
      details: row.text(17),
      archive: row.text(18),
      durableBytes: row.integer(21) ?? 0,
      partialBoot: row.text(22))
  }

  /// A row of the query interface's (`SELECT *`, by column name), for the listings.
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
      owner: Self.owner(
        pid: try row.decode(forColumn: "pid"), started: try row.decode(forColumn: "ownerStart"),
        boot: try row.decode(forColumn: "ownerBoot")),
      feedURL: try row.decode(forColumn: "feedURL"),
      published: try row.decode(forColumn: "published"),
      details: try row.decode(forColumn: "details"),
      archive: try row.decode(forColumn: "archive"),
      durableBytes: try row.decode(forColumn: "durableBytes"),
      partialBoot: try row.decode(forColumn: "partialBoot"))
  }

  /// A row written before owners had a start time and a boot names its pid alone: nobody
  /// running now can be told from it, so it names a process of no boot, which is never alive.
  private static func owner(pid: Int64?, started: Int64?, boot: String?) -> ProcessOwner? {
    guard let pid else { return nil }
    return ProcessOwner(
      pid: Int32(truncatingIfNeeded: pid), started: started.map { UInt64(bitPattern: $0) } ?? 0,
      boot: boot ?? "")
  }
}
