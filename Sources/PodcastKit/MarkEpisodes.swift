import Feeds
import Foundation
import Model
import Selection
import SideFiles
import Source
import Store

/// `podcast mark`: tell sync to skip episodes, to treat them as already had, or to take them
/// as new again; or record them played or unplayed (and tell the account's server).
public struct MarkEpisodes: Sendable {
  public enum Choice: String, Sendable, CaseIterable {
    /// Sync never fetches them.
    case skip
    /// Sync treats them as had (from another app, say).
    case downloaded
    /// Undo: the mark goes, and sync takes them as new.
    case new
    /// Heard to the end: recorded here, and sent to the account's server as a `play` action
    /// at the episode's length.
    case played
    /// Not heard after all: sent as a `new` action.
    case unplayed
    /// Kept whatever the retention: `--keep N` and `--delete-played` leave them.
    case keepForever
    /// Retention may have them again.
    case noKeepForever

    /// The mark stored; `new` stores none, which is what lets sync take them again.
    var state: EpisodeMark.State? {
      switch self {
      case .skip: .skip
      case .downloaded: .downloaded
      case .new, .played, .unplayed, .keepForever, .noKeepForever: nil
      }
    }
  }

  public struct Outcome: Sendable {
    public var marked: Int
    /// The subscription FEED is, whose first-sync queue and seen episodes the marks changed.
    public var subscription: Subscription?
    /// Folder pages that could not be brought up to date with the plays: notes only.
    public var pageFailures: [FolderViewError] = []
  }

  private let resolver: FeedResolver
  private let paths: LibraryPaths

  public init(paths: LibraryPaths, network: Network) {
    resolver = ResolveFeed(paths: paths, network: network).resolver
    self.paths = paths
  }

  /// `selection`: indexes as `podcast episodes` numbers them; one the feed does not have
  /// throws `SelectionError` before anything is marked.
  public func run(feed: String, selection: EpisodeSelection, as choice: Choice) async throws
    -> Outcome
  {
    let resolved = try await resolver.resolve(feed)
    let episodes = resolved.feed.episodes
    try selection.validate(episodeCount: episodes.count)
    let store = try LibraryStore(paths: paths)
    let subscription = try Self.subscription(feed, resolved: resolved, store: store)
    let chosen = selection.indexes.map { episodes[$0 - 1] }
    var outcome = Outcome(marked: selection.indexes.count, subscription: subscription)
    switch choice {
    case .played, .unplayed:
      let feedURL = subscription?.feedURL ?? resolved.location
      let now = Date()
      try PlayStates(store: store).recordMarked(
        chosen.map { episode in
          let key = EpisodeMark.key(for: episode)
          let state =
            choice == .played
            ? PlayState(
              key: key, feedURL: feedURL, position: episode.duration, total: episode.duration,
              played: true, playedAt: now, actedAt: now)
            : PlayState(key: key, feedURL: feedURL, total: episode.duration, actedAt: now)
          return (state, episode.enclosure.url, episode.guid)
        })
      // The pages of the folders this feed's episodes are in say what was played.
      let finished = FinishedDownloads(store: store)
      let files = Set(
        try finished.files(feedURL: feedURL) + finished.files(feedURL: resolved.location))
      let roots =
        [store.paths.episodes]
        + (try SavedSettings(store: store).all()).values.compactMap(\.episodesDir)
      outcome.pageFailures = FolderViews.update(
        files.sorted().map { TouchedFile($0, .changed) }, episodesDirectories: roots,
        store: store)
    case .keepForever, .noKeepForever:
      try KeptForever(store: store).keep(
        chosen, feedURL: subscription?.feedURL ?? resolved.location,
        forever: choice == .keepForever)
    case .skip, .downloaded, .new:
      try EpisodeMarks(store: store).mark(
        chosen, as: choice.state, feedURL: resolved.location, subscriptionId: subscription?.id)
    }
    return outcome
  }

  /// The subscription FEED names, or whose feed it is: marking an episode `new` must also
  /// make that subscription forget it saw it, or its next sync would not take it.
  private static func subscription(
    _ feed: String, resolved: ResolvedFeed, store: LibraryStore
  ) throws -> Subscription? {
    if case .subscription = try? FeedSource.classify(feed) {
      return try Subscriptions(store: store).matching(feed)
    }
    return try Subscriptions(store: store).all().first {
      $0.feedURL == resolved.location || $0.feedURL == feed
    }
  }
}
