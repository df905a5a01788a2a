import Basics
import Foundation
internal import GRDB
import Model

/// Subscription changes between the library and its account's server: the journal of local
/// changes still to send, and the server's changes applied here without being journaled.
extension LibraryStore {
  /// The journal, oldest first.
  public func accountJournal() throws -> [AccountChange] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: "SELECT id, change, feedURL, serverURL, subscriptionId FROM accountJournal ORDER BY id"
      ).compactMap { row in
        guard let kind = AccountChange.Kind(rawValue: row[1]) else { return nil }
        return AccountChange(
          id: row[0], kind: kind, feedURL: row[2], serverURL: row[3], subscriptionId: row[4])
      }
    }
  }

  /// Journals the subscription as added, when the library has an account.
  static func journalAdded(_ db: Database, subscriptionId: Int64) throws {
    guard try account(db) != nil else { return }
    try db.execute(
      sql: """
        INSERT INTO accountJournal (change, feedURL, subscriptionId, madeAt)
        SELECT 'add', feedURL, id, ? FROM subscriptions WHERE id = ?
        """, arguments: [StoredDate(Date()), subscriptionId])
  }

  /// After the server took the journal up to `lastId`: those rows go, each subscription sent
  /// as added is known to the server by the URL sent, and the server's rewrites of URLs are
  /// followed (see `followRewrite`), in one transaction. Rows journaled since stay for the
  /// next push. Returns the subscriptions a rewrite made duplicates of another, now removed.
  public func recordJournalPushed(
    upTo lastId: Int64, added: [(subscriptionId: Int64, url: String)],
    rewrites: [(old: String, new: String?)]
  ) throws -> [Subscription] {
    try applyingFromServer { db in
      try db.execute(sql: "DELETE FROM accountJournal WHERE id <= ?", arguments: [lastId])
      for (id, url) in added { try Self.linkToServer(db, subscriptionId: id, serverURL: url) }
      return try rewrites.compactMap { try followRewrite(old: $0.old, new: $0.new, db) }
    }
  }

  /// The server stores `old` as `new` (gpodder.net's `update_urls`): the subscription it knew
  /// as `old` is known as `new`, and follows it when it read its feed there; when another
  /// subscription follows `new` already, this one is the same feed twice and goes (its files
  /// stay). `new` nil: the server refused the URL, so it knows the subscription by none.
  private func followRewrite(old: String, new: String?, _ db: Database) throws -> Subscription? {
    let subscriptions = try SubscriptionRow.fetchAll(db).map(\.subscription)
    let feeds = try Self.serverURLs(db)
    guard
      let found = subscriptions.first(where: { feeds[$0.id] == old })
        ?? subscriptions.first(where: { $0.feedURL == old })
    else { return nil }
    let id = found.id
    guard let new else {
      try db.execute(sql: "DELETE FROM accountFeeds WHERE subscriptionId = ?", arguments: [id])
      return nil
    }
    if subscriptions.contains(where: { $0.id != id && $0.feedURL == new }) {
      _ = try Subscriptions(store: self).delete(id: id, db)
      return found
    }
    if found.feedURL == old {
      try db.execute(
        sql: "UPDATE subscriptions SET feedURL = ? WHERE id = ?", arguments: [new, id])
    }
    try Self.linkToServer(db, subscriptionId: id, serverURL: new)
    return nil
  }

  /// The subscription the server means by `url`: the one it knows by that URL, else the one
  /// that follows it, else one whose feed URL names the same feed (`FeedIdentity`).
  public func subscription(serverURL url: String) throws -> Subscription? {
    try read { db in try Self.subscription(serverURL: url, db) }
  }

  static func subscription(serverURL url: String, _ db: Database) throws -> Subscription? {
    if let id = try Int64.fetchOne(
      db, sql: "SELECT subscriptionId FROM accountFeeds WHERE serverURL = ?", arguments: [url]),
      let row = try SubscriptionRow.fetchOne(db, key: id)
    {
      return row.subscription
    }
    let all = try SubscriptionRow.fetchAll(db).map(\.subscription)
    if let exact = all.first(where: { $0.feedURL == url }) { return exact }
    let key = FeedIdentity.key(url)
    let feeds = try serverURLs(db)
    return all.first { subscription in
      FeedIdentity.key(subscription.feedURL) == key
        || feeds[subscription.id].map(FeedIdentity.key) == key
    }
  }

  /// Unsubscribes from the feed the server removed (`url`), keeping its files as `unsubscribe`
  /// does, without journaling it. Returns the subscription removed, nil when none follows it.
  public func unsubscribeFromServer(_ url: String) throws -> Subscription? {
    try applyingFromServer { db in
      guard let found = try Self.subscription(serverURL: url, db),
        try Subscriptions(store: self).delete(id: found.id, db)
      else { return nil }
      return found
    }
  }

  /// The server's subscription changes up to its clock `timestamp` are applied: the next pull
  /// asks from there.
  public func recordSubscriptionsPulled(timestamp: Int64, at time: Date = Date()) throws {
    try write { db in
      try db.execute(
        sql: """
          UPDATE account SET subscriptionsSince = ?, subscriptionsExchanged = ?,
            lastError = NULL, lastErrorAt = NULL WHERE id = 1
          """, arguments: [timestamp, StoredDate(time)])
    }
  }

  static func serverURLs(_ db: Database) throws -> [Int64: String] {
    var feeds: [Int64: String] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT subscriptionId, serverURL FROM accountFeeds") {
      feeds[row[0]] = row[1]
    }
    return feeds
  }
}
