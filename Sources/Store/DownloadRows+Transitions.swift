import Basics
import Foundation
internal import GRDB
import Model

/// The one writer of the `downloads` table: every insert, update and delete of a row is here,
/// and each is what `DownloadTransition` decided from the row as it stands in the same
/// transaction. The store's download functions (queueing, a running download's notes, the
/// finish, relinks, forgetting) all come through `perform`.
extension DownloadRows {
  /// Applies `transition` to the row keyed `key`, as read in `db`'s transaction; returns the
  /// row after it (nil: there is none).
  /// `unwritten`: a move decided earlier and not written yet (a begin, see `DownloadRows.start`),
  /// applied first: the two are decided on the row as read and written as one change.
  @discardableResult
  func perform(
    _ transition: DownloadTransition, after unwritten: DownloadTransition? = nil,
    key: DownloadKey, _ db: Database
  ) throws -> DownloadRecord? {
    let stored = try DownloadRecordRow.find(db, key: key)?.record
    guard let unwritten else { return try perform(transition, on: stored, key: key, db) }
    var current = stored
    switch try outcome(of: unwritten, on: stored, key: key) {
    case .unchanged: break
    case .write(let next): current = next
    case .delete: current = nil
    }
    switch try outcome(of: transition, on: current, key: key) {
    case .unchanged:
      return try write(current.map { .write($0) } ?? .delete, over: stored, key: key, db)
    case let outcome: return try write(outcome, over: stored, key: key, db)
    }
  }

  /// `perform` on a row already read in this transaction (`current` keyed `key`, or nil).
  @discardableResult
  func perform(
    _ transition: DownloadTransition, on current: DownloadRecord?, key: DownloadKey,
    _ db: Database
  ) throws -> DownloadRecord? {
    try write(outcome(of: transition, on: current, key: key), over: current, key: key, db)
  }

  /// Writes `outcome` over `current`, the row as read in this transaction.
  private func write(
    _ outcome: DownloadTransition.Outcome, over current: DownloadRecord?, key: DownloadKey,
    _ db: Database
  ) throws -> DownloadRecord? {
    switch outcome {
    case .unchanged:
      return current
    case .write(let next):
      let row = DownloadRecordRow(next)
      guard let current else {
        try db.cachedStatement(sql: Self.insertSQL).run([.text(key.text)] + row.values)
        return next
      }
      // Only the columns that change: a progress note is then one page of the WAL (the row),
      // not one for every index of the table.
      let changes = row.changes(from: DownloadRecordRow(current))
      guard !changes.isEmpty else { return next }
      try db.cachedStatement(
        sql:
          "UPDATE downloads SET \(changes.map { "\($0.column) = ?" }.joined(separator: ", ")) WHERE key = ?"
      ).run(changes.map(\.value) + [.text(key.text)])
      return next
    case .delete:
      try db.cachedStatement(sql: "DELETE FROM downloads WHERE key = ?").run([.text(key.text)])
      return nil
    }
  }

  /// What `transition` would make of `current` (keyed `key`), in this process, without
  /// writing it.
  func outcome(of transition: DownloadTransition, on current: DownloadRecord?, key: DownloadKey)
    throws -> DownloadTransition.Outcome
  {
    let circumstances = DownloadTransition.Circumstances(
      owner: .current, ownerAlive: current?.owner?.isAlive ?? false,
      fileExists: current.map(Self.hasFile) ?? false)
    return try transition.outcome(
      for: current, key: key, partialPath: store.paths.partial(forKey: key), circumstances)
  }

  /// Applies `.forget(why)` to each of `rows` the move applies to: the rows a mark, an
  /// unsubscribe or a pruned file leaves without purpose. The others stay: begun ones, those
  /// a running process will start, finished ones still on disk. Which is which is the
  /// transition's to say, not this query's.
  func forget(
    _ rows: ForgottenDownloads, as why: DownloadTransition.Forgetting, _ db: Database
  ) throws {
    var (condition, arguments) = rows.condition
    if let state = why.from {
      condition = "(\(condition)) AND state = ?"
      arguments += [state.rawValue]
    }
    let candidates = try DownloadRecordRow.fetchAll(
      db, sql: "SELECT \(DownloadRecordRow.selection) FROM downloads WHERE \(condition)",
      arguments: arguments)
    for row in candidates {
      do {
        try perform(.forget(why), on: row.record, key: row.record.key, db)
      } catch LibraryError.illegalDownloadMove {
        continue
      }
    }
  }

  /// The row `wanted` is, if the library has one: the one keyed as `wanted` would be; else
  /// one listed in the same feed under another of its identity keys (the feed gave the
  /// episode a GUID since, say); else one of its URL (a feed that moved, a download made
  /// without a feed), as rows were found before they were keyed by episode. And the finished
  /// download of it whose file is still there, found as `FinishedDownloads.find` finds it. One read
  /// of each kind of row serves both.
  static func known(_ db: Database, _ wanted: QueuedDownload) throws -> (
    row: DownloadRecord?, finished: DownloadRecord?
  ) {
    let byKey = try DownloadRecordRow.find(db, key: wanted.key)?.record
    let byURL = try DownloadRecordRow.all(db, url: wanted.url).map(\.record)
    var listed: [DownloadRecord] = []
    if let feedURL = wanted.feedURL, !wanted.identityKeys.isEmpty {
      listed = try DownloadRecordRow.listed(
        db, feedURL: feedURL, keys: wanted.identityKeys, finished: false
      ).map(\.record)
    }
    let finished =
      try (byURL + listed.filter { $0.state == .done }).first(where: hasFile)
      ?? FinishedDownloads.findInOtherFeeds(
        db, keys: wanted.identityKeys, feedURL: wanted.feedURL, show: wanted.show)
    if let byKey { return (byKey, finished) }
    for key in wanted.identityKeys {
      if let found = listed.first(where: { $0.episodeKey == key }) { return (found, finished) }
    }
    let row =
      byURL.first { $0.feedURL == wanted.feedURL } ?? byURL.first { $0.state != .done }
      ?? byURL.first
    return (row, finished)
  }

  /// Queues `wanted` in the row it already has (`row`, from `known`) or a new one; returns the
  /// row's key. Its callers note the feeds' shows once (`FinishedDownloads.recordShows`).
  @discardableResult
  func queue(_ wanted: QueuedDownload, in row: DownloadRecord?, _ db: Database) throws
    -> DownloadKey
  {
    let key = row?.key ?? wanted.key
    try perform(.queue(wanted), on: row, key: key, db)
    return key
  }

  /// `queue(_:in:_:)` in the row `known` finds.
  @discardableResult
  func queue(_ wanted: QueuedDownload, _ db: Database) throws -> DownloadKey {
    try queue(wanted, in: try Self.known(db, wanted).row, db)
  }

  private static let insertSQL =
    "INSERT INTO downloads (key, \(DownloadRecordRow.valueColumns.joined(separator: ", "))) "
    + "VALUES (\(Array(repeating: "?", count: DownloadRecordRow.valueColumns.count + 1).joined(separator: ", ")))"

  /// Whether a finished row's file is there (asked only of finished rows).
  static func hasFile(_ record: DownloadRecord) -> Bool {
    record.state == .done && record.file.map { FileManager.default.fileExists(atPath: $0) } == true
  }
}
