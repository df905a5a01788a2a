import Basics
import Foundation
internal import GRDB
import Model

/// Subscriptions, and how a user's word ("3", "hardcore", "Hardcore History") picks one.
extension LibraryStore {
  /// A subscription with no settings beyond `keep`.
  @discardableResult
  public func addSubscription(name: String, feedURL: String, title: String?, keep: Int?) throws
    -> Subscription
  {
    try addSubscription(
      name: name, feedURL: feedURL, title: title, keep: keep, settings: SubscriptionSettings())
  }

  /// Also forgets the downloads queued for it that never started (what `subscribe` chose for
  /// the first sync), so `status` does not show them waiting forever; begun ones stay, as
  /// their partial files do.
  public func removeSubscription(id: Int64) throws {
    let deleted = try write { db in try deleteSubscription(id: id, db) }
    if !deleted { throw LibraryError.unknownSubscription(id: id) }
  }

  /// The subscription's row and its downloads queued and never begun; false when there is no
  /// such subscription.
  func deleteSubscription(id: Int64, _ db: Database) throws -> Bool {
    if let feedURL = try String.fetchOne(
      db, sql: "SELECT feedURL FROM subscriptions WHERE id = ?", arguments: [id])
    {
      try forgetDownloads(.feed(feedURL), as: .unstarted, db)
    }
    return try SubscriptionRow.deleteOne(db, key: id)
  }

  /// In the order they were added; a subscription's number is its 1-based position here.
  public func subscriptions() throws -> [Subscription] {
    try read { db in
      try db.cachedStatement(
        sql: "SELECT \(SubscriptionRow.selection) FROM subscriptions ORDER BY id"
      ).all([]) { SubscriptionRow($0).subscription }
    }
  }

  /// Saves every field of an existing subscription (sync's validators, errors, renames).
  public func updateSubscription(_ subscription: Subscription) throws {
    let id = subscription.id
    try SubscriptionName.validate(subscription.name)
    if let keep = subscription.keep, keep < 1 { throw LibraryError.invalidKeep(keep) }
    try write { db in
      try Self.refuseDuplicate(
        db, name: subscription.name, feedURL: subscription.feedURL, except: id)
      guard try SubscriptionRow.exists(db, key: id) else {
        throw LibraryError.unknownSubscription(id: id)
      }
      try SubscriptionRow(subscription).update(db)
    }
  }

  /// Resolves a number (1-based, as `podcast subscriptions` shows), an exact name or feed URL,
  /// or a case-insensitive name prefix that only one subscription has.
  public func subscription(matching text: String) throws -> Subscription {
    let all = try subscriptions()
    let wanted = text.trimmingCharacters(in: .whitespaces)
    if let number = Int(wanted) {
      guard number >= 1, number <= all.count else {
        throw LibraryError.noSubscriptionNumber(number, count: all.count)
      }
      return all[number - 1]
    }
    if let exact = all.first(where: { $0.name == wanted || $0.feedURL == wanted }) {
      return exact
    }
    let lowered = wanted.lowercased()
    if let exact = Self.single(all.filter { $0.name.lowercased() == lowered }) { return exact }
    let candidates = all.filter { $0.name.lowercased().hasPrefix(lowered) }
    if !wanted.isEmpty, let match = Self.single(candidates) { return match }
    if candidates.count > 1, !wanted.isEmpty {
      throw LibraryError.ambiguousSubscription(text, candidates: candidates.map(\.name))
    }
    throw LibraryError.noSubscription(text, count: all.count)
  }

  /// A name based on `base` that no subscription uses yet: `base`, `base-2`, `base-3`...
  public func availableName(basedOn base: String) throws -> String {
    let taken = try read { db in try Self.takenNameKeys(db) }
    var candidate = base
    var suffix = 2
    while taken.contains(Subscription.nameKey(candidate)) {
      candidate = "\(base)-\(suffix)"
      suffix += 1
    }
    return candidate
  }

  static func takenNameKeys(_ db: Database) throws -> Set<String> {
    Set(try String.fetchAll(db, sql: "SELECT nameKey FROM subscriptions"))
  }

  private static func single(_ subscriptions: [Subscription]) -> Subscription? {
    subscriptions.count == 1 ? subscriptions[0] : nil
  }

  /// Both lookups are index searches (the unique feed URL, `nameKey`), never a table scan.
  /// `id` nil: the subscription is not stored yet, so every stored one counts (`id IS NOT
  /// NULL` holds for each row).
  static func refuseDuplicate(
    _ db: Database, name: String, feedURL: String, except id: Int64?
  ) throws {
    if let clash = try String.fetchOne(
      db, sql: "SELECT name FROM subscriptions WHERE feedURL = ? AND id IS NOT ?",
      arguments: [feedURL, id])
    {
      throw LibraryError.duplicateFeed(url: feedURL, name: clash)
    }
    let taken = try Bool.fetchOne(
      db, sql: "SELECT EXISTS (SELECT 1 FROM subscriptions WHERE nameKey = ? AND id IS NOT ?)",
      arguments: [Subscription.nameKey(name), id])
    if taken == true { throw LibraryError.duplicateName(name) }
  }
}
