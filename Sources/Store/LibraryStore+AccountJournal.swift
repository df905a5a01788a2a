import Basics
import Foundation
internal import GRDB
import Model

/// Linking a subscription to the URL the account's server knows it by.
extension LibraryStore {
  /// Records that the server knows the subscription `subscription(serverURL:)` finds by `url`;
  /// nil when there is none.
  @discardableResult
  public func linkSubscription(serverURL url: String) throws -> Subscription? {
    try write { db in
      guard let found = try Self.subscription(serverURL: url, db) else { return nil }
      try Self.linkToServer(db, subscriptionId: found.id, serverURL: url)
      return found
    }
  }

  /// Records that the server knows the subscription named `name` by `url`.
  public func linkSubscription(named name: String, serverURL url: String) throws {
    try write { db in
      guard
        let id = try Int64.fetchOne(
          db, sql: "SELECT id FROM subscriptions WHERE name = ?", arguments: [name])
      else { return }
      try Self.linkToServer(db, subscriptionId: id, serverURL: url)
    }
  }
}
