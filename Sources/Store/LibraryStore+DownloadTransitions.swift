import Basics
import Foundation
internal import GRDB
import Model

/// The one writer of the `downloads` table: every insert, update and delete of a row is here,
/// and each is what `DownloadTransition` decided from the row as it stands in the same
/// transaction. The store's download functions (queueing, a running download's notes, the
/// finish, relinks, forgetting) all come through `perform`.
extension LibraryStore {
  /// Applies `transition` to the row keyed `key`, as read in `db`'s transaction; returns the
  /// row after it (nil: there is none).
  @discardableResult
  func perform(_ transition: DownloadTransition, key: DownloadKey, _ db: Database) throws
    -> DownloadRecord?
  {
    try perform(transition, on: DownloadRecordRow.find(db, key: key)?.record, key: key, db)
  }

  /// `perform` on a row already read in this transaction (`current` keyed `key`, or nil).
  @discardableResult
  func perform(
    _ transition: DownloadTransition, on current: DownloadRecord?, key: DownloadKey,
    _ db: Database
  ) throws -> DownloadRecord? {
    let circumstances = DownloadTransition.Circumstances(
      pid: ProcessInfo.processInfo.processIdentifier,
      ownerAlive: RunningProcess.isAlive(current?.pid),
      fileExists: current.map(Self.hasFile) ?? false)
    switch try transition.outcome(
      for: current, key: key, partialPath: paths.partial(forKey: key), circumstances)
    {
    case .unchanged:
      return current
    case .write(let next):
      let row = DownloadRecordRow(next)
      guard let current else {
        try db.cachedStatement(sql: Self.insertSQL).execute(
          arguments: StatementArguments([key.text] + row.values.map(StoredDate.binding)))
        return next
      }
      // Only the columns that change: a progress note is then two pages of the WAL (the row
      // and the `updatedAt` index), not one for every index of the table.
      let old = DownloadRecordRow(current).values
      var columns: [String] = []
      var values: [(any DatabaseValueConvertible)?] = []
      for (index, value) in row.values.enumerated() where !Self.same(value, old[index]) {
        columns.append(DownloadRecordRow.valueColumns[index])
        values.append(StoredDate.binding(value))
      }
      guard !columns.isEmpty else { return next }
      try db.cachedStatement(
        sql:
          "UPDATE downloads SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE key = ?"
      ).execute(arguments: StatementArguments(values + [key.text]))
      return next
    case .delete:
      try db.cachedStatement(sql: "DELETE FROM downloads WHERE key = ?").execute(
        arguments: [key.text])
      return nil
    }
  }

  /// Applies `.forget(why)` to every row `condition` (an SQL condition on `downloads`)
  /// selects: the rows a mark, an unsubscribe or a pruned file leaves without purpose.
  func forgetDownloads(
    where condition: String, arguments: StatementArguments,
    as why: DownloadTransition.Forgetting, _ db: Database
  ) throws {
    let rows = try DownloadRecordRow.fetchAll(
      db, sql: "SELECT \(DownloadRecordRow.selection) FROM downloads WHERE \(condition)",
      arguments: arguments)
    for row in rows {
      // Queued for a process that is running (a sync that planned it): that one starts it.
      if why == .unstarted && RunningProcess.isAlive(row.record.pid) { continue }
      try perform(.forget(why), on: row.record, key: row.record.key, db)
    }
  }

  /// The row `wanted` is, if the library has one: the one keyed as `wanted` would be; else
  /// one listed in the same feed under another of its identity keys (the feed gave the
  /// episode a GUID since, say); else one of its URL (a feed that moved, a download made
  /// without a feed), as rows were found before they were keyed by episode.
  static func existingDownload(_ db: Database, for wanted: QueuedDownload) throws
    -> DownloadRecord?
  {
    if let row = try DownloadRecordRow.find(db, key: wanted.key) { return row.record }
    if let feedURL = wanted.feedURL, !wanted.identityKeys.isEmpty {
      let listed = try DownloadRecordRow.listed(
        db, feedURL: feedURL, keys: wanted.identityKeys, finished: false
      ).map { $0.record }
      for key in wanted.identityKeys {
        if let found = listed.first(where: { $0.episodeKey == key }) { return found }
      }
    }
    let byURL = try DownloadRecordRow.all(db, url: wanted.url).map { $0.record }
    return byURL.first { $0.feedURL == wanted.feedURL } ?? byURL.first { $0.state != .done }
      ?? byURL.first
  }

  /// Queues `wanted` in the row it already has or a new one (`existingDownload`).
  @discardableResult
  func queue(_ wanted: QueuedDownload, _ db: Database) throws -> DownloadKey {
    let current = try Self.existingDownload(db, for: wanted)
    let key = current?.key ?? wanted.key
    try perform(.queue(wanted), on: current, key: key, db)
    return key
  }

  /// Whether a column keeps its value. Dates are compared as dates: GRDB turns a date into
  /// its text for the database, which cost more than the rest of a transition together
  /// (4.5% of a cold sync's instructions went to formatting dates that had not changed).
  private static func same(
    _ new: (any DatabaseValueConvertible)?, _ old: (any DatabaseValueConvertible)?
  ) -> Bool {
    switch (new, old) {
    case (nil, nil): return true
    case (let new as Date, let old as Date): return new == old
    case (let new?, let old?): return new.databaseValue == old.databaseValue
    default: return false
    }
  }

  private static let insertSQL =
    "INSERT INTO downloads (key, \(DownloadRecordRow.valueColumns.joined(separator: ", "))) "
    + "VALUES (\(Array(repeating: "?", count: DownloadRecordRow.valueColumns.count + 1).joined(separator: ", ")))"

  /// Whether a finished row's file is there (asked only of finished rows).
  static func hasFile(_ record: DownloadRecord) -> Bool {
    record.state == .done && record.file.map { FileManager.default.fileExists(atPath: $0) } == true
  }
}
