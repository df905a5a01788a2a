import Foundation
import Model
import Privacy
import Source
import Store
import Sync
import Transfer

/// `podcast subscribe`: follow a feed, so every sync downloads its new episodes.
///
/// The feed is fetched once here, and what that fetch learned (its validators, its episodes,
/// what the first-sync policy chooses) is saved with the subscription, so the first sync can
/// be a conditional GET and still download exactly what it would have on its own.
public struct SubscribeToFeed: Sendable {
  /// What the user is told, or shown as JSON.
  public struct Outcome: Sendable {
    public var subscription: Subscription
    /// Its number in `podcast subscriptions`, which other commands accept for its name.
    public var number: Int?
    public var episodeCount: Int
    public var settings: SubscriptionSettings
    /// Downloads the first sync will make: the episodes the first-sync policy chose.
    public var queuedForFirstSync: Int
    /// Why a paged feed's pages were not all read. When episodes may be missing, nothing of
    /// the feed is saved with the subscription: its first sync reads every page itself.
    public var pageProblem: FeedPageError?
  }

  public enum Failure: Error, Equatable, CustomStringConvertible {
    /// A subscription's name is not a feed to follow.
    case notAFeed(String)
    /// Credentials go into the URL as userinfo, so they need an http(s) URL.
    case credentialsNeedURL(feed: String)

    public var description: String {
      switch self {
      case .notAFeed(let feed):
        return "cannot subscribe to \(feed): give an http(s) feed URL, an Apple Podcasts link, "
          + "itunes:ID or a feed file"
      case .credentialsNeedURL(let feed):
        return "credentials need an http(s) feed URL, not \(feed)"
      }
    }
  }

  private let resolver: FeedResolver
  private let paths: LibraryPaths

  public init(paths: LibraryPaths, network: Network) {
    resolver = ResolveFeed(paths: paths, network: network).resolver
    self.paths = paths
  }

  /// - Parameters:
  ///   - name: the subscription's name; nil names it after the feed's title.
  ///   - credentials: asked for only once FEED is known not to be a subscription's name, so a
  ///     mistyped name fails at once instead of first asking for a password.
  ///   - firstSyncNameTemplate: the file name template a sync uses when the subscription has
  ///     none of its own (nil: the default), so what is queued here is filed where a first sync
  ///     on its own would have put it.
  ///   - serverURL: the feed was added on the account's server, which knows it by this URL
  ///     (the exchange subscribes it here): it is not sent back.
  public func run(
    feed: String, name: String? = nil, keep: Int? = nil,
    credentials: (() throws -> FeedCredentials)? = nil,
    settings: SubscriptionSettings = SubscriptionSettings(),
    firstSyncNameTemplate: String? = nil, serverURL: String? = nil
  ) async throws -> Outcome {
    try settings.check()
    if case .subscription = try? FeedSource.classify(feed) {
      throw Failure.notAFeed(feed)
    }
    let credentials = try credentials?()
    let source = try credentials.map { try Self.url(feed, with: $0) } ?? feed
    // Fetching first proves it is a feed, and gives the title to name the subscription after.
    let resolved = try await resolver.resolve(
      source, allPages: settings.pages != false, keepingDocument: true)
    let location = Self.subscribedLocation(resolved, source: source, credentials: credentials)
    let store = try LibraryStore(paths: paths)
    let title = resolved.feed.podcast.title
    let base =
      title.map(SubscriptionName.slug).flatMap { $0.isEmpty ? nil : $0 }
      ?? SubscriptionName.guess(fromFeed: location)
    let chosenName = try name ?? Subscriptions(store: store).availableName(basedOn: base)
    // Saved with the subscription, so its first sync is a conditional GET that still
    // downloads what the first-sync policy chose here.
    // A feed missing pages would make the first sync a 304 that never reads them: nothing of
    // it is kept, and the first sync starts from scratch, as after `import`.
    let firstRefresh =
      resolved.pageProblem?.isFailure == true
      ? FirstRefresh(validators: Validators(), episodes: [])
      : try SyncPlanner.firstRefresh(
        of: resolved.feed, feedURL: location, name: chosenName, settings: settings,
        validators: resolved.validators, store: store,
        namer: try firstSyncNameTemplate.map { try FileNamer(template: $0) })
    let subscription = try Subscriptions(store: store).add(
      name: chosenName, feedURL: location, title: title, keep: keep, settings: settings,
      firstRefresh: firstRefresh, serverURL: serverURL)
    let id = subscription.id
    // The first copy of the feed (every page read), with the validators the first sync will
    // send: that sync's 304 then confirms it. One that cannot be written only makes the first
    // sync fetch the whole feed (see `FeedRefresher.conditionalValidators`).
    if let document = resolved.document,
      let pages = try? ([document] + resolved.laterDocuments).map(KeptFeed.Page.init)
    {
      try? KeptFeeds(store: store).keep(
        KeptFeed(feedURL: location, validators: firstRefresh.validators, pages: pages),
        subscriptionId: id)
    }
    let number = try Subscriptions(store: store).all().firstIndex { $0.id == subscription.id }.map {
      $0 + 1
    }
    return Outcome(
      subscription: subscription, number: number,
      episodeCount: try EpisodeLog(store: store).counts()[id] ?? 0,
      settings: try SavedSettings(store: store).of(subscriptionId: id),
      queuedForFirstSync: firstRefresh.queued.count, pageProblem: resolved.pageProblem)
  }

  private static func url(_ feed: String, with credentials: FeedCredentials) throws -> String {
    guard let url = credentials.applied(to: feed) else {
      throw Failure.credentialsNeedURL(feed: feed)
    }
    return url
  }

  /// Where the subscription reads its feed: the URL after redirects, or the feed file's
  /// absolute path (a relative one would break as soon as cron runs elsewhere).
  private static func subscribedLocation(
    _ resolved: ResolvedFeed, source: String, credentials: FeedCredentials?
  ) -> String {
    guard FeedLocation.isRemote(resolved.location) else {
      return URL(fileURLWithPath: resolved.location).standardizedFileURL.path
    }
    let location = resolved.location
    // The final URL after redirects loses the userinfo; it goes back only on the same host,
    // so a redirect never carries the password to another server.
    if let credentials, FeedCredentials.of(location) == nil,
      URL(string: location)?.host == URL(string: source)?.host
    {
      return credentials.applied(to: location) ?? location
    }
    return location
  }
}
