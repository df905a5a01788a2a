import Basics
import Foundation
internal import GRDB
import Model

/// The episode actions the library owes its account's server (see `PendingAction`): rows of
/// `accountOutbox`, written in the transaction of what they tell (a download recorded done, by
/// trigger; a play marked here) and deleted once the server has them.
public struct AccountOutbox: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  /// The outbox, oldest first.
  public func pending() throws -> [PendingAction] {
    try store.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT id, action, feedURL, episodeURL, guid, doneAt, position, total, sent
          FROM accountOutbox ORDER BY id
          """
      ).compactMap { row in
        guard let kind = PendingAction.Kind(rawValue: row[1]) else { return nil }
        return PendingAction(
          id: row[0], kind: kind, feedURL: row[2], episodeURL: row[3], guid: row[4], at: row[5],
          position: row[6], total: row[7], sent: row[8])
      }
    }
  }

  /// Before an upload: if it is cut off, the server may have these, and the next one checks.
  public func markSent(_ ids: [Int64]) throws {
    try change(ids, sql: "UPDATE accountOutbox SET sent = 1 WHERE id IN")
  }

  /// The server has them, or they are not for it: they go.
  public func forget(_ ids: [Int64]) throws {
    try change(ids, sql: "DELETE FROM accountOutbox WHERE id IN")
  }

  private func change(_ ids: [Int64], sql: String) throws {
    guard !ids.isEmpty else { return }
    try store.write { db in
      // In slices: SQLite takes at most 32,766 values in one statement.
      for start in stride(from: 0, to: ids.count, by: 500) {
        let slice = Array(ids[start..<min(ids.count, start + 500)])
        let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
        try db.execute(sql: "\(sql) (\(marks))", arguments: StatementArguments(slice))
      }
    }
  }
}

/// What the rest of the store's writes need of the outbox, inside their own transactions.
extension LibraryStore {
  /// Owes the server `kind` for an episode, when the library has an account.
  static func owe(
    _ kind: PendingAction.Kind, feedURL: String?, episodeURL: String, guid: String?, at time: Date,
    position: Int? = nil, total: Int? = nil, _ db: Database
  ) throws {
    guard try account(db) != nil else { return }
    try db.execute(
      sql: """
        INSERT INTO accountOutbox (action, feedURL, episodeURL, guid, doneAt, position, total)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        kind.rawValue, feedURL, episodeURL, guid, StoredDate(time), position, total,
      ])
  }
}
