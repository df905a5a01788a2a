import Basics
import Foundation
internal import GRDB
import Model

/// The library's subscriptions, and how a user's word ("3", "hardcore", "Hardcore History")
/// picks one. A subscription is added with its settings and what `subscribe` learned of its
/// feed in one transaction, and goes with its episodes, settings and kept copy (the schema's
/// cascades) and its downloads queued and never begun.
public struct Subscriptions: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  /// In the order they were added; a subscription's number is its 1-based position here.
  public func all() throws -> [Subscription] {
    try store.read { db in
      try db.cachedStatement(
        sql: "SELECT \(SubscriptionRow.selection) FROM subscriptions ORDER BY id"
      ).all([]) { SubscriptionRow($0).subscription }
    }
  }

  /// A subscription with no settings beyond `keep`.
  @discardableResult
  public func add(name: String, feedURL: String, title: String?, keep: Int?) throws
    -> Subscription
  {
    try add(
      name: name, feedURL: feedURL, title: title, keep: keep, settings: SubscriptionSettings())
  }

  /// Subscribes with settings, and with what `firstRefresh` learned from the feed, in one
  /// transaction, so a failure or a kill leaves no half-set subscription: either none, or one
  /// whose validators never go without the episodes and queued downloads they stand for.
  /// `serverURL`: the subscription comes from the account's server, which knows it by that
  /// URL; it is not journaled to be sent back.
  @discardableResult
  public func add(
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
      if !settings.isEmpty { try SavedSettings.save(db, settings, subscriptionId: id) }
      if let firstRefresh {
        try EpisodeLog(store: store).record(firstRefresh, db, subscriptionId: id)
      }
      if let serverURL {
        try LibraryStore.linkToServer(db, subscriptionId: id, serverURL: serverURL)
      }
      return subscription
    }
    return try serverURL == nil ? store.write(insert) : store.applyingFromServer(insert)
  }

  /// Also forgets the downloads queued for it that never started (what `subscribe` chose for
  /// the first sync), so `status` does not show them waiting forever; begun ones stay, as
  /// their partial files do.
  public func remove(id: Int64) throws {
    let deleted = try store.write { db in try delete(id: id, db) }
    if !deleted { throw LibraryError.unknownSubscription(id: id) }
  }

  /// The subscription's row and its downloads queued and never begun; false when there is no
  /// such subscription.
  func delete(id: Int64, _ db: Database) throws -> Bool {
    if let feedURL = try String.fetchOne(
      db, sql: "SELECT feedURL FROM subscriptions WHERE id = ?", arguments: [id])
    {
      try DownloadRows(store: store).forget(.feed(feedURL), as: .unstarted, db)
    }
    return try SubscriptionRow.deleteOne(db, key: id)
  }

  /// Saves every field of an existing subscription (sync's validators, errors, renames).
  public func update(_ subscription: Subscription) throws {
    let id = subscription.id
    try SubscriptionName.validate(subscription.name)
    if let keep = subscription.keep, keep < 1 { throw LibraryError.invalidKeep(keep) }
    try store.write { db in
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
  public func matching(_ text: String) throws -> Subscription {
    let all = try all()
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
    let taken = try store.read { db in try Self.takenNameKeys(db) }
    var candidate = base
    var suffix = 2
    while taken.contains(Subscription.nameKey(candidate)) {
      candidate = "\(base)-\(suffix)"
      suffix += 1
    }
    return candidate
  }

  /// The name of the subscription, other than `id`, that follows `feedURL`.
  public func name(following feedURL: String, except id: Int64) throws -> String? {
    try store.read { db in
      try String.fetchOne(
        db, sql: "SELECT name FROM subscriptions WHERE feedURL = ? AND id != ?",
        arguments: [feedURL, id])
    }
  }

  // MARK: - What the account's server knows them by

  /// Records that the server knows the subscription `LibraryStore.subscription(serverURL:)`
  /// finds by `url`; nil when there is none.
  @discardableResult
  public func link(serverURL url: String) throws -> Subscription? {
    try store.write { db in
      guard let found = try LibraryStore.subscription(serverURL: url, db) else { return nil }
      try LibraryStore.linkToServer(db, subscriptionId: found.id, serverURL: url)
      return found
    }
  }

  /// Records that the server knows the subscription named `name` by `url`.
  public func link(named name: String, serverURL url: String) throws {
    try store.write { db in
      guard
        let id = try Int64.fetchOne(
          db, sql: "SELECT id FROM subscriptions WHERE name = ?", arguments: [name])
      else { return }
      try LibraryStore.linkToServer(db, subscriptionId: id, serverURL: url)
    }
  }

  // MARK: - Inside a transaction

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
