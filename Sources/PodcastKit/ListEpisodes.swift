import Downloads
import Feeds
import Model
import Selection
import Source
import Store

/// `podcast episodes`: a feed's episodes, newest first, numbered as `download` and `mark`
/// take them, each with what the library holds of it. Only reads: listing never creates,
/// migrates or writes a library, so it works on a full disk or a read-only one.
///
/// For a subscription, the feed is asked for conditionally and may come from the library's
/// kept copy (`SubscribedFeed`), and the episodes the library holds that the feed dropped
/// follow the feed's own (`dropped`).
///
/// Built for large feeds (the benchmark lists 20,000 episodes): the listing holds the feed's
/// own episode array and the indexes to show, never a filtered copy. The library's rows and
/// marks are read up front, but each episode's status is put together from them only when
/// asked, so a listing streamed as it is written builds no per-episode array on top.
public struct ListEpisodes: Sendable {
  public struct Listing: Sendable {
    public let podcast: Podcast
    /// Every episode of the feed, as parsed: shown through `indexes`.
    public let episodes: [Episode]
    /// The 1-based positions in `episodes` to show, in order: the filter and the limit
    /// applied, each keeping the feed's own number.
    public let indexes: [Int]
    /// Whether a filter chose the indexes (the limit alone does not count).
    public let filtered: Bool
    /// Where the feed came from: the server, or the library's kept copy of a subscription's.
    public let origin: SubscribedFeed.Origin
    /// A subscription's episodes the feed no longer lists, to show after the feed's own
    /// (filtered; cut by the limit after the feed's own).
    public let dropped: [DroppedEpisode]
    /// How many there are, filtered, before the limit.
    public let droppedTotal: Int
    /// Why a paged feed's pages were not all read: the listing has the pages that were.
    public var pageProblem: FeedPageError?
    private let downloads: DownloadProgressReader
    private let marks: [String: EpisodeMark.State]
    private let plays: [String: PlayState]
    /// Each episode's identity keys, by offset; empty when there is no library to match.
    private let keys: [[String]]

    fileprivate init(
      feed: Feed, indexes: [Int], filtered: Bool, downloads: DownloadProgressReader,
      marks: [String: EpisodeMark.State], plays: [String: PlayState],
      origin: SubscribedFeed.Origin, dropped: [DroppedEpisode], droppedTotal: Int
    ) {
      podcast = feed.podcast
      episodes = feed.episodes
      self.indexes = indexes
      self.filtered = filtered
      self.origin = origin
      self.dropped = dropped
      self.droppedTotal = droppedTotal
      self.downloads = downloads
      self.marks = marks
      self.plays = plays
      // Identity keys find an episode whose URL changed; without a library there is none.
      keys = downloads.hasLibrary ? EpisodeIdentity.distinctKeys(of: episodes) : []
    }

    /// Episodes in the feed, shown or not.
    public var total: Int { episodes.count }

    /// The status of the episode at 1-based `index`.
    public func status(at index: Int) -> ListedStatus {
      // Fields read in place: binding `episodes[index - 1]` copied the whole episode (a dozen
      // retains and releases) for its URL.
      ListedStatus(
        download: downloads.status(
          of: episodes[index - 1].enclosure.url, keys: keys.isEmpty ? [] : keys[index - 1]),
        mark: marks.isEmpty ? nil : marks[EpisodeMark.key(for: episodes[index - 1])],
        play: plays.isEmpty
          ? nil
          : ListedStatus.play(
            keys: EpisodeIdentity.identityKeys(
              guid: episodes[index - 1].guid, enclosureURL: episodes[index - 1].enclosure.url,
              title: episodes[index - 1].title, published: episodes[index - 1].published),
            in: plays))
    }
  }

  private let resolver: FeedResolver
  private let paths: LibraryPaths

  public init(paths: LibraryPaths, network: Network) {
    resolver = ResolveFeed(paths: paths, network: network).resolver
    self.paths = paths
  }

  /// `limit`: at most this many of the episodes the filter lets through, newest first; a
  /// subscription's dropped episodes come after the feed's own, so they fill what is left.
  /// `allPages`: false reads a paged feed's first page only (`--no-pages`).
  public func run(
    feed: String, filter: EpisodeFilter = EpisodeFilter(), limit: Int? = nil,
    allPages: Bool = true
  ) async throws -> Listing {
    // A subscription's library is opened first, to find its kept copy.
    var store: LibraryStore?
    var subscription: Subscription?
    var origin = SubscribedFeed.Origin.server
    let resolved: ResolvedFeed
    if case .subscription(let name)? = try? FeedSource.classify(feed),
      let opened = try LibraryStore(readingAt: paths)
    {
      store = opened
      let found = try Subscriptions(store: opened).matching(name)
      subscription = found
      if FeedLocation.isRemote(found.feedURL) {
        let loaded = try await SubscribedFeed.load(
          found, loader: resolver.loader, keptFeeds: KeptFeeds(store: opened),
          // As the resolver does: the setting is looked up only for a feed that is paged.
          readsPages: {
            guard allPages else { return false }
            return try SavedSettings(store: opened).of(subscriptionId: found.id).pages != false
          })
        resolved = loaded.resolved
        origin = loaded.origin
      } else {
        resolved = try await resolver.resolve(feed, allPages: allPages)
      }
    } else {
      resolved = try await resolver.resolve(feed, allPages: allPages)
      store = try LibraryStore(readingAt: paths)
    }
    let episodes = resolved.feed.episodes
    // Nil without a filter, so the unfiltered listing keeps its fast path.
    let predicate = filter.isEmpty ? nil : try filter.predicate()
    // Indexes, not copies: the numbers stay the feed's own when filtered, and a copy of
    // 20,000 episodes would be 5 MB.
    var indexes =
      predicate.map { $0.indexes(in: episodes) } ?? Array(episodes.indices.map { $0 + 1 })
    if let limit { indexes = Array(indexes.prefix(limit)) }
    // Every state is read before the listing is returned: a library that cannot be read is
    // one error, not a listing that calls downloaded episodes new.
    let downloads = try DownloadProgressReader(
      store: store, feedURL: resolved.location, show: ShowIdentity.key(resolved.feed.podcast))
    let marks = try store.map { try EpisodeMarks(store: $0).all() } ?? [:]
    let plays = try store?.playStates() ?? [:]
    var dropped: [DroppedEpisode] = []
    // Only a listing of the whole feed can tell what the feed no longer lists: not one of a
    // paged feed's first page (`--no-pages`, or its kept copy offline), nor one whose chain
    // of pages stopped early (a loop is no stop: every page was read).
    if resolved.readToEnd, let store, let id = subscription?.id {
      let listed = Set(
        episodes.lazy.flatMap {
          EpisodeIdentity.identityKeys(
            guid: $0.guid, enclosureURL: $0.enclosure.url, title: $0.title,
            published: $0.published)
        })
      dropped = DroppedEpisode.find(
        in: try EpisodeLog(store: store).episodes(subscriptionId: id), listed: listed,
        downloads: downloads,
        marks: marks, plays: plays, filter: predicate)
    }
    let droppedTotal = dropped.count
    if let limit { dropped = Array(dropped.prefix(max(0, limit - indexes.count))) }
    var listing = Listing(
      feed: resolved.feed, indexes: indexes, filtered: predicate != nil, downloads: downloads,
      marks: marks, plays: plays, origin: origin, dropped: dropped, droppedTotal: droppedTotal)
    listing.pageProblem = resolved.pageProblem
    return listing
  }
}
