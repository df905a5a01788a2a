import Basics
import Foundation
internal import GRDB
import Model

/// A `Subscription` as a row of the `subscriptions` table. The persistence lives here, not on
/// `Subscription`, so PodcastKit's public types stay free of GRDB.
package struct SubscriptionRow: FetchableRecord, PersistableRecord {
  package static let databaseTableName = "subscriptions"

  package var subscription: Subscription

  package init(_ subscription: Subscription) {
    self.subscription = subscription
  }

  /// The columns `init(_: SQLRow)` reads, in this order.
  static let selection =
    "id, name, feedURL, title, keep, addedAt, lastChecked, etag, lastModified, lastError"

  /// A row of `selection`, by position (see `Statement.run`): a sync reads every
  /// subscription as it starts.
  init(_ row: SQLRow) {
    subscription = Subscription(
      id: row.rowID(0), name: row.text(1) ?? "", feedURL: row.text(2) ?? "",
      title: row.text(3), keep: row.integer(4).map { Int($0) },
      addedAt: row.date(5) ?? Date(timeIntervalSince1970: 0), lastChecked: row.date(6),
      etag: row.text(7), lastModified: row.text(8), lastError: row.text(9))
  }

  init(row: Row) throws {
    subscription = Subscription(
      id: try row.decode(forColumn: "id"),
      name: try row.decode(forColumn: "name"),
      feedURL: try row.decode(forColumn: "feedURL"),
      title: try row.decode(forColumn: "title"),
      keep: try row.decode(forColumn: "keep"),
      addedAt: try row.decode(forColumn: "addedAt"),
      lastChecked: try row.decode(forColumn: "lastChecked"),
      etag: try row.decode(forColumn: "etag"),
      lastModified: try row.decode(forColumn: "lastModified"),
      lastError: try row.decode(forColumn: "lastError"))
  }

  /// The stored columns, plus `nameKey`, kept beside the name so the duplicate check is an
  /// index lookup (see "v3-indexes").
  func encode(to container: inout PersistenceContainer) {
    container["id"] = subscription.id
    container["name"] = subscription.name
    container["nameKey"] = Subscription.nameKey(subscription.name)
    container["feedURL"] = subscription.feedURL
    container["title"] = subscription.title
    container["keep"] = subscription.keep
    container["addedAt"] = subscription.addedAt
    container["lastChecked"] = subscription.lastChecked
    container["etag"] = subscription.etag
    container["lastModified"] = subscription.lastModified
    container["lastError"] = subscription.lastError
  }

  /// Stores a new subscription: SQLite assigns its id, so what is known before arrives as
  /// values, and the `Subscription` made of them is the stored one.
  static func insert(
    _ db: Database, name: String, feedURL: String, title: String?, keep: Int?,
    validators: Validators = Validators()
  ) throws -> Subscription {
    let addedAt = Date()
    // Cached: an import inserts thousands in one transaction, and preparing the statement
    // each time (the subscriptions table's triggers compiled with it) was half its cost.
    try db.cachedStatement(
      sql: """
        INSERT INTO subscriptions (name, nameKey, feedURL, title, keep, addedAt, etag, lastModified)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    ).execute(
      arguments: [
        name, Subscription.nameKey(name), feedURL, title, keep, addedAt, validators.etag,
        validators.lastModified,
      ])
    return Subscription(
      id: db.lastInsertedRowID, name: name, feedURL: feedURL, title: title, keep: keep,
      addedAt: addedAt, etag: validators.etag, lastModified: validators.lastModified)
  }
}
