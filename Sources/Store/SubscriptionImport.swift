import Basics
import Foundation
internal import GRDB
import Model

/// `podcast import`: many subscriptions added at once, from the entries of an OPML file.
public struct SubscriptionImport: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  /// What became of one OPML entry.
  public enum Outcome: Sendable {
    case added(Subscription)
    /// Its feed is subscribed already (before the import, or by an earlier entry of the file).
    case alreadySubscribed
    case failed(any Error)
  }

  /// Subscribes to every entry's feed not subscribed yet, under its own name or one made from
  /// its title or URL (suffixed `-2`, `-3`... when taken), with its retention and settings.
  /// One transaction for the whole file, with the taken names and feeds read once, so an
  /// import costs the same per entry at 10 subscriptions or 10,000; each entry is its own
  /// savepoint, so one that fails leaves nothing of itself and the others still go in.
  public func add(_ entries: [OPMLEntry]) throws -> [Outcome] {
    try store.write { db in
      var feeds = Set(try String.fetchAll(db, sql: "SELECT feedURL FROM subscriptions"))
      var names = try Subscriptions.takenNameKeys(db)
      return entries.map { entry in
        guard !feeds.contains(entry.feedURL) else { return .alreadySubscribed }
        do {
          let subscription = try Self.insert(entry, takenNames: names, db)
          feeds.insert(subscription.feedURL)
          names.insert(Subscription.nameKey(subscription.name))
          return .added(subscription)
        } catch {
          return .failed(error)
        }
      }
    }
  }

  private static func insert(_ entry: OPMLEntry, takenNames: Set<String>, _ db: Database) throws
    -> Subscription
  {
    let base =
      entry.name ?? entry.title.map(SubscriptionName.slug)
      ?? SubscriptionName.guess(fromFeed: entry.feedURL)
    var name = base
    var suffix = 2
    while takenNames.contains(Subscription.nameKey(name)) {
      name = "\(base)-\(suffix)"
      suffix += 1
    }
    try SubscriptionName.validate(name)
    if let keep = entry.keep, keep < 1 { throw LibraryError.invalidKeep(keep) }
    return try db.savepoint {
      let subscription = try SubscriptionRow.insert(
        db, name: name, feedURL: entry.feedURL, title: entry.title, keep: entry.keep)
      if !entry.settings.isEmpty {
        try SavedSettings.save(db, entry.settings, subscriptionId: subscription.id)
      }
      return (subscription, keep: true)
    }
  }
}
