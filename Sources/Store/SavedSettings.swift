import Basics
import Foundation
internal import GRDB
import Model

/// Each subscription's own settings (`podcast set`, an OPML import), one JSON document per
/// subscription; a subscription without one has every default.
public struct SavedSettings: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  public func of(subscriptionId: Int64) throws -> SubscriptionSettings {
    try store.read { db in try Self.settings(db, subscriptionId: subscriptionId) }
  }

  /// Every subscription's settings, by subscription id (absent: all defaults).
  public func all() throws -> [Int64: SubscriptionSettings] {
    try store.read { db in
      var all: [Int64: SubscriptionSettings] = [:]
      for row in try Row.fetchAll(
        db, sql: "SELECT subscriptionId, settings FROM subscriptionSettings")
      {
        let id: Int64 = row["subscriptionId"]
        all[id] = try Self.decode(row["settings"])
      }
      return all
    }
  }

  /// `forgettingFirstRefresh`: the change alters what a first sync takes (filters, `first`),
  /// so what `subscribe` chose for it is forgotten too, in the same transaction (see
  /// `FirstRefresh`); it only applies while the subscription has never been synced.
  /// `sharingWithAccount`: the subscription was just shared with the account's server
  /// (`--share-with-account`), so it is journaled as added, to be sent at the next exchange.
  public func save(
    _ settings: SubscriptionSettings, subscriptionId: Int64, forgettingFirstRefresh: Bool = false,
    sharingWithAccount: Bool = false
  ) throws {
    try store.write { db in
      try Self.save(db, settings, subscriptionId: subscriptionId)
      if forgettingFirstRefresh {
        try EpisodeLog(store: store).forgetFirstRefresh(db, subscriptionId: subscriptionId)
      }
      if sharingWithAccount { try LibraryStore.journalAdded(db, subscriptionId: subscriptionId) }
    }
  }

  // MARK: - Inside a transaction

  static func save(_ db: Database, _ settings: SubscriptionSettings, subscriptionId: Int64)
    throws
  {
    guard try SubscriptionRow.exists(db, key: subscriptionId) else {
      throw LibraryError.unknownSubscription(id: subscriptionId)
    }
    let text = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
    try db.execute(
      sql: """
        INSERT INTO subscriptionSettings (subscriptionId, settings) VALUES (?, ?)
        ON CONFLICT(subscriptionId) DO UPDATE SET settings = excluded.settings
        """, arguments: [subscriptionId, text])
  }

  private static func settings(_ db: Database, subscriptionId: Int64) throws
    -> SubscriptionSettings
  {
    let text = try String.fetchOne(
      db, sql: "SELECT settings FROM subscriptionSettings WHERE subscriptionId = ?",
      arguments: [subscriptionId])
    return try text.map(decode) ?? SubscriptionSettings()
  }

  private static func decode(_ text: String) throws -> SubscriptionSettings {
    try JSONDecoder().decode(SubscriptionSettings.self, from: Data(text.utf8))
  }
}
