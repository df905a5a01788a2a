import Foundation
import GRDB

/// Per-subscription settings, one JSON document per subscription.
extension LibraryStore {
  public func settings(subscriptionId: Int64) throws -> SubscriptionSettings {
    try read { db in try Self.settings(db, subscriptionId: subscriptionId) }
  }

  /// Every subscription's settings, by subscription id (absent: all defaults).
  public func allSettings() throws -> [Int64: SubscriptionSettings] {
    try read { db in
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

  public func saveSettings(_ settings: SubscriptionSettings, subscriptionId: Int64) throws {
    let text = try String(decoding: JSONEncoder().encode(settings), as: UTF8.self)
    try write { db in
      guard try Subscription.exists(db, key: subscriptionId) else {
        throw LibraryError.unknownSubscription(id: subscriptionId)
      }
      try db.execute(
        sql: """
          INSERT INTO subscriptionSettings (subscriptionId, settings) VALUES (?, ?)
          ON CONFLICT(subscriptionId) DO UPDATE SET settings = excluded.settings
          """, arguments: [subscriptionId, text])
    }
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
