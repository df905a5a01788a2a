import Model
import Store

/// `podcast subscriptions`: the library's subscriptions in the order their numbers count,
/// each with its settings and how many episodes it has seen (before a first sync: its feed
/// lists). Only reads: a folder without a
/// library lists none and stays as it was.
public struct ListSubscriptions: Sendable {
  /// One subscription as listed.
  public struct Entry: Sendable {
    /// What selects it in other commands (1 is the first).
    public var number: Int
    public var subscription: Subscription
    public var episodeCount: Int
    public var settings: SubscriptionSettings
  }

  private let paths: LibraryPaths

  public init(paths: LibraryPaths) {
    self.paths = paths
  }

  public func run() throws -> [Entry] {
    guard let store = try Library.existingStore(at: paths) else { return [] }
    let counts = try EpisodeLog(store: store).counts()
    let settings = try SavedSettings(store: store).all()
    return try Subscriptions(store: store).all().enumerated().map { offset, subscription in
      let saved = settings[subscription.id] ?? SubscriptionSettings()
      return Entry(
        number: offset + 1, subscription: subscription,
        episodeCount: counts[subscription.id]
          ?? Self.listed(subscription, settings: saved, store: store),
        settings: saved)
    }
  }

  /// The episodes a subscription's kept copy lists, for one that has seen none: a new one
  /// whose filters changed before its first sync, which then decides afresh (see
  /// `ChangeSettings`), still has the episodes its feed lists. Zero without a copy.
  private static func listed(
    _ subscription: Subscription, settings: SubscriptionSettings, store: LibraryStore
  ) -> Int {
    guard subscription.lastChecked == nil,
      let copy = try? KeptFeeds(store: store).copy(subscriptionId: subscription.id),
      let resolved = try? SubscribedFeed.parse(copy.feed, allPages: settings.pages != false)
    else { return 0 }
    return resolved.feed.episodes.count
  }

  /// The subscriptions' names, for completing them in a shell: none when the library cannot
  /// be read, as a completion has nowhere to say why.
  public func names() -> [String] {
    guard let store = try? Library.existingStore(at: paths),
      let subscriptions = try? Subscriptions(store: store).all()
    else { return [] }
    return subscriptions.map(\.name)
  }
}
