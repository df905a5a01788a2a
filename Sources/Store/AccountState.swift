import Basics
import Foundation
internal import GRDB
import Model

/// The library's account on a sync server, as the library keeps it: the one row of the `account`
/// table that says who and where, and how far each kind of exchange has got. The password
/// lives here and nowhere else: the database is readable by its owner only (see
/// `LibraryStore.init`).
public struct AccountState: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  /// nil when the library has no account.
  public func record() throws -> AccountRecord? {
    try store.read { db in try LibraryStore.account(db) }
  }

  /// Links the library to `record`'s account, and journals every subscription it has as
  /// added, in one transaction: the server learns the archive's list at the first exchange, as
  /// it learns the phone's. Throws `accountExists` when the library has one.
  public func link(_ record: AccountRecord) throws {
    try store.write { db in
      if let existing = try LibraryStore.account(db) {
        throw LibraryError.accountExists(user: existing.user, server: existing.server)
      }
      try db.execute(
        sql: """
          INSERT INTO account (id, server, user, password, device, api, follows, addedAt)
          VALUES (1, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          record.server, record.user, record.password, record.device, record.api,
          record.follows, StoredDate(record.addedAt),
        ])
      try db.execute(
        sql: """
          INSERT INTO accountJournal (change, feedURL, subscriptionId, madeAt)
          SELECT 'add', feedURL, id, ? FROM subscriptions ORDER BY id
          """, arguments: [StoredDate(record.addedAt)])
    }
  }

  /// The account's new password (and the API the server was found to speak, and the device
  /// it follows now, when `follows` is given), everything else kept: what waits for the server
  /// still does.
  public func replaceLogin(password: String, api: String, follows: String? = nil) throws {
    try store.write { db in
      guard try LibraryStore.account(db) != nil else { throw LibraryError.noAccount }
      try db.execute(
        sql: """
          UPDATE account SET password = ?, api = ?, follows = coalesce(?, follows),
            lastError = NULL, lastErrorAt = NULL
          """,
        arguments: [password, api, follows])
    }
  }

  /// Unlinks the library: the account, what the server knew of each subscription, and the
  /// changes and actions still owed to it go; what was played stays (it is the library's own
  /// knowledge now). Returns the account that was removed, nil when there was none.
  @discardableResult
  public func unlink() throws -> AccountRecord? {
    try store.write { db in
      let existing = try LibraryStore.account(db)
      try db.execute(
        sql: """
          DELETE FROM account; DELETE FROM accountFeeds; DELETE FROM accountJournal;
          DELETE FROM accountOutbox;
          """)
      return existing
    }
  }

  /// Why the exchange failed (already masked by the caller), and when.
  public func recordFailure(_ reason: String, at time: Date = Date()) throws {
    try store.write { db in
      try db.execute(
        sql: "UPDATE account SET lastError = ?, lastErrorAt = ? WHERE id = 1",
        arguments: [reason, StoredDate(time)])
    }
  }

  /// The server's subscription changes up to its clock `timestamp` are applied: the next pull
  /// asks from there.
  public func recordSubscriptionsPulled(timestamp: Int64, at time: Date = Date()) throws {
    try store.write { db in
      try db.execute(
        sql: """
          UPDATE account SET subscriptionsSince = ?, subscriptionsExchanged = ?,
            lastError = NULL, lastErrorAt = NULL WHERE id = 1
          """, arguments: [timestamp, StoredDate(time)])
    }
  }

  /// The changes and actions waiting for the server.
  public func backlog() throws -> (changes: Int, actions: Int) {
    try store.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM accountJournal") ?? 0,
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM accountOutbox") ?? 0
      )
    }
  }

  /// The URL the server knows each subscription by, by subscription id.
  public func serverURLs() throws -> [Int64: String] {
    try store.read { db in try LibraryStore.serverURLs(db) }
  }
}

/// What the rest of the store's writes need of the account, inside their own transactions.
extension LibraryStore {
  static func account(_ db: Database) throws -> AccountRecord? {
    // A library read before this version migrated it has no table, and so no account.
    guard try db.tableExists("account") else { return nil }
    guard let row = try Row.fetchOne(db, sql: "SELECT * FROM account WHERE id = 1") else {
      return nil
    }
    var record = AccountRecord(
      server: row["server"], user: row["user"], password: row["password"],
      device: row["device"], api: row["api"], addedAt: row["addedAt"])
    record.follows = row["follows"]
    record.subscriptionsSince = row["subscriptionsSince"]
    record.actionsSince = row["actionsSince"]
    record.subscriptionsExchanged = row["subscriptionsExchanged"]
    record.actionsExchanged = row["actionsExchanged"]
    record.lastError = row["lastError"]
    record.lastErrorAt = row["lastErrorAt"]
    return record
  }

  /// Runs `body` in a write transaction whose subscription changes are not journaled: they
  /// come from the server, and journaling them would send them back.
  func applyingFromServer<T>(_ body: (Database) throws -> T) throws -> T {
    try write { db in
      try db.execute(sql: "INSERT OR IGNORE INTO accountApplying (id) VALUES (1)")
      let result = try body(db)
      try db.execute(sql: "DELETE FROM accountApplying")
      return result
    }
  }

  /// Records that the server knows subscription `id` by `url`.
  static func linkToServer(_ db: Database, subscriptionId id: Int64, serverURL url: String) throws {
    try db.execute(
      sql: """
        INSERT INTO accountFeeds (subscriptionId, serverURL) SELECT ?, ?
        WHERE EXISTS (SELECT 1 FROM subscriptions WHERE id = ?)
        ON CONFLICT(subscriptionId) DO UPDATE SET serverURL = excluded.serverURL
        """, arguments: [id, url, id])
  }

  static func serverURLs(_ db: Database) throws -> [Int64: String] {
    var feeds: [Int64: String] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT subscriptionId, serverURL FROM accountFeeds") {
      feeds[row[0]] = row[1]
    }
    return feeds
  }
}
