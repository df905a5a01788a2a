import Basics
import Downloads
import Feeds
import Foundation
import Model
import Selection
import SideFiles
import Source
import Store
import Sync
import Tags
import Transfer

/// `podcast download`: chosen episodes of one feed fetched into the library, in two steps so a
/// front end can check the choice before it starts (or detaches): `jobs(for:)` picks the
/// episodes and names their files, `perform` downloads them and brings the views of the podcast
/// folders it touched (playlists, feeds) up to date.
public struct DownloadEpisodes: Sendable {
  /// Which episodes. Filters narrow each: `.newest`, `.latest` and `.all` count matching
  /// episodes only; `.indexes` keeps its indexes that match.
  public enum Choice: Sendable, Equatable {
    /// The newest episode: what `download FEED` means.
    case newest
    case latest(Int)
    case all
    /// Indexes as `podcast episodes` shows them (1 is the newest).
    case indexes(EpisodeSelection)
  }

  public let choice: Choice
  public let filter: EpisodePredicate?
  public let settings: DownloadSettings

  /// Throws when `settings` are out of their bounds (`DownloadSettings.check`).
  public init(choice: Choice, filter: EpisodePredicate?, settings: DownloadSettings) throws {
    try settings.check()
    self.choice = choice
    self.filter = filter
    self.settings = settings
  }

  /// The jobs for the chosen episodes of `resolved`, newest first as chosen. `feed` is the
  /// FEED as the user gave it, for the errors.
  public func jobs(for resolved: ResolvedFeed, feed: String) throws -> [DownloadJob] {
    let episodes = resolved.feed.episodes
    if episodes.isEmpty && choice == .newest {
      // The feed's fault, not a usage error: one line and exit 1, like any failed feed.
      throw DownloadEpisodesError.noEpisodes(feed: feed)
    }
    let indexes = try chosenIndexes(in: episodes)
    if indexes.isEmpty && filter != nil && !episodes.isEmpty {
      throw DownloadEpisodesError.noMatch(feed: feed)
    }
    let namer = try settings.namer()
    let keys = EpisodeIdentity.distinctKeys(of: episodes)
    let podcast = resolved.feed.podcast
    return indexes.map { index in
      settings.sideFiles(
        of: DownloadJob(
          episode: episodes[index - 1], podcast: podcast, index: index, namer: namer,
          feedURL: resolved.location, identityKeys: keys[index - 1],
          archive: settings.writeFeed || settings.writePage, info: settings.infoJSON))
    }
  }

  /// Downloads `jobs` into the library's Episodes folder. A folder's playlist or feed that
  /// cannot be written is a problem reported, not a failed download: the episodes are in place.
  public func perform(
    _ jobs: [DownloadJob], library: Library, network: Network, reporter: some RunReporter
  ) async -> [DownloadResult] {
    let store = library.store
    let http = network.http
    // What killed or cut-off runs left goes first; this run is marked until it ends.
    let mark = RunMark(store: store, episodesDirectory: store.paths.episodes)
    let manager = DownloadManager(
      store: store, http: http.limited(to: settings.bytesPerSecond), options: settings.options,
      refresher: LinkRefresher(loader: FeedLoader(http: http)))
    let results = await reporter.download(jobs, on: manager)
    // With this run's folders, those a run that died may have left behind.
    let request = FolderRequest(feed: settings.feedRequest, page: settings.writePage)
    for failure in FolderViews.update(
      results.touchedFiles { _ in request }
        + mark.finishedByDeadRuns.map { TouchedFile($0, .changed) },
      episodesDirectories: [store.paths.episodes], store: store)
    {
      reporter.problem(failure, subject: nil)
    }
    return results
  }

  /// Files of `results` that the next sync deletes: the feed at `feedURL` is a subscription's
  /// whose retention (`--keep N`, `--delete-played`) they fall outside, counting every file it
  /// has on disk. Said after a download, so the sync that removes them is no surprise.
  public struct GoingAtNextSync: Sendable, Equatable {
    public var subscription: String
    public var keep: Int?
    public var files: [String]
  }

  /// nil when nothing just downloaded goes at the next sync (or the library cannot tell).
  public func goingAtNextSync(_ results: [DownloadResult], feedURL: String, library: Library)
    -> GoingAtNextSync?
  {
    let fetched = Set(
      results.compactMap { result -> String? in
        if case .downloaded(let file, _, _) = result.outcome { return file }
        return nil
      })
    // Nothing fetched, nothing to look up: the settings and plays are read only for files.
    let store = library.store
    guard !fetched.isEmpty,
      let subscription = try? Subscriptions(store: store).all().first(where: {
        $0.feedURL == feedURL
      })
    else { return nil }
    let going = SyncPruner(store: store).wouldPrune([subscription], adding: [:]).filter {
      fetched.contains($0)
    }
    guard !going.isEmpty else { return nil }
    return GoingAtNextSync(subscription: subscription.name, keep: subscription.keep, files: going)
  }

  private func chosenIndexes(in episodes: [Episode]) throws -> [Int] {
    let matching = filter.map { $0.indexes(in: episodes) } ?? Array(episodes.indices.map { $0 + 1 })
    switch choice {
    case .all: return matching
    case .latest(let count): return Array(matching.prefix(count))
    case .newest: return Array(matching.prefix(1))
    case .indexes(let selection):
      try selection.validate(episodeCount: episodes.count)
      guard let filter else { return selection.indexes }
      return selection.indexes.filter { filter.accepts(episodes[$0 - 1]) }
    }
  }
}
