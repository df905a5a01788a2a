import Basics
import Foundation
internal import GRDB
import Model

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

  /// `forgettingFirstRefresh`: the change alters what a first sync takes (filters, `first`),
  /// so what `subscribe` chose for it is forgotten too, in the same transaction (see
  /// `FirstRefresh`); it only applies while the subscription has never been synced.
  /// `sharingWithAccount`: the subscription was just shared with the account's server
  /// (`--share-with-account`), so it is journaled as added, to be sent at the next exchange.
  public func saveSettings(
    _ settings: SubscriptionSettings, subscriptionId: Int64, forgettingFirstRefresh: Bool = false,
    sharingWithAccount: Bool = false
  ) throws {
    try write { db in
      try Self.save(db, settings, subscriptionId: subscriptionId)
      if forgettingFirstRefresh { try forgetFirstRefresh(db, subscriptionId: subscriptionId) }
      if sharingWithAccount { try Self.journalAdded(db, subscriptionId: subscriptionId) }
    }
  }

  /// Subscribes with settings, and with what `firstRefresh` learned from the feed, in one
  /// transaction, so a failure or a kill leaves no half-set subscription: either none, or one
  /// whose validators never go without the episodes and queued downloads they stand for.
  /// `serverURL`: the subscription comes from the account's server, which knows it by that
  /// URL; it is not journaled to be sent back.
  @discardableResult
  public func addSubscription(
    name: String, feedURL: String, title: String?, keep: Int?, settings: SubscriptionSettings,
    firstRefresh: FirstRefresh? = nil, serverURL: String? = nil
  ) throws -> Subscription {
    try SubscriptionName.validate(name)
    if let keep, keep < 1 { throw LibraryError.invalidKeep(keep) }
    let insert = { (db: Database) throws -> Subscription in
      try Self.refuseDuplicate(db, name: name, feedURL: feedURL, except: nil)
      let subscription = try SubscriptionRow.insert(
        db, name: name, feedURL: feedURL, title: title, keep: keep,
        validators: firstRefresh?.validators ?? Validators())
      let id = subscription.id
      if !settings.isEmpty { try Self.save(db, settings, subscriptionId: id) }
      if let firstRefresh { try self.record(firstRefresh, db, subscriptionId: id) }
      if let serverURL { try Self.linkToServer(db, subscriptionId: id, serverURL: serverURL) }
      return subscription
    }
    return try serverURL == nil ? write(insert) : applyingFromServer(insert)
  }

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
