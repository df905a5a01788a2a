import Basics
import Downloads
import Model
import Selection
import SideFiles
import Source
import Store
import Transfer

/// One sync of some subscriptions, in two steps the caller takes under the library's sync
/// lock: `download` refreshes every feed and downloads each one's new episodes as soon as it
/// is planned; `finish` prunes, completes side files beside earlier episodes, brings the
/// podcast folders' views up to date and writes the run's playlist. `preview` plans and says
/// what `download` and `finish` would do, changing nothing. Between the steps, the use case
/// (`SyncSubscriptions`) exchanges with the library's account, whose plays `finish` prunes by.
/// Problems are told to the reporter as they happen.
package struct SyncRun: Sendable {
  let store: LibraryStore
  let http: HTTPClient
  let settings: DownloadSettings
  /// Where this run puts every episode, over each subscription's own folder (see `SyncBatch`);
  /// nil: each subscription's folder, else the library's Episodes directory.
  let episodesDirectory: String?
  /// The run's own filter (`sync --match ...`), on top of each subscription's.
  let filter: EpisodePredicate?
  /// A playlist of what this run downloaded, written to this path.
  let playlist: String?
  /// False: paged feeds are read on their first page only.
  let readsPages: Bool

  package init(
    store: LibraryStore, http: HTTPClient, settings: DownloadSettings,
    episodesDirectory: String?, filter: EpisodePredicate?, playlist: String?, readsPages: Bool
  ) {
    self.store = store
    self.http = http
    self.settings = settings
    self.episodesDirectory = episodesDirectory
    self.filter = filter
    self.playlist = playlist
    self.readsPages = readsPages
  }

  /// What `download` and `finish` would download, where, and what they would prune; nothing
  /// changes. Each feed that failed is told as it fails.
  package func preview(_ subscriptions: [Subscription], reporter: some RunReporter) async throws
    -> SyncPreview
  {
    let plan = try await planner(dryRun: true).plan(
      subscriptions, concurrency: SyncPlanner.feedsInFlight(downloads: settings.concurrency))
    tellFailedFeeds(plan, reporter: reporter)
    let batches = try batches(plan, allSettings: try SavedSettings(store: store).all())
    let planned = Dictionary(grouping: plan.downloads, by: \.subscriptionId).mapValues {
      $0.map(\.job.published)
    }
    let prunable = SyncPruner(store: store).wouldPrune(
      plan.feeds.map(\.subscription), adding: planned)
    return SyncPreview(
      subscriptions: subscriptions.count, batches: batches, prunable: prunable,
      feedsFailed: !plan.failedFeeds.isEmpty)
  }

  /// What `download` leaves for `finish`: the plan, each download's result in the run's order,
  /// and the run's mark (see `RunMark`), held until the run is over.
  package struct Downloaded: Sendable {
    let plan: SyncPlan
    let results: [DownloadResult]
    let batches: [SyncBatch]
    let allSettings: [Int64: SubscriptionSettings]
    let mark: RunMark
  }

  /// Planning and downloading overlapped: the downloads of subscriptions that keep to the
  /// run's own folder, concurrency and budget start as soon as their feed is planned, so they
  /// do not wait for the slowest feed (at 80 ms a round trip, the feeds of a first sync of 200
  /// took ~1 s before the first episode began). Subscriptions with settings of their own go in
  /// batches after, one after another. Each download was queued in the library with its
  /// feed's refresh, so a kill loses none of them.
  ///
  /// What the run holds grows with its feeds only by what it reports: the planner runs only
  /// as far ahead of the downloads as the manager's queue allows, and each download leaves a
  /// summary behind (`DownloadResult.Summary`), not its job.
  package func download(_ subscriptions: [Subscription], reporter: some RunReporter)
    async throws -> Downloaded
  {
    let allSettings = try SavedSettings(store: store).all()
    let runBatch = batch(for: SubscriptionSettings())
    // What killed or cut-off runs left goes first; this run is marked until it ends.
    let mark = RunMark(store: store, episodesDirectory: runBatch.episodesDirectory)
    // Worked out once per subscription with settings, not once per planned download.
    let elsewhere = Set(
      allSettings.compactMap { id, own in batch(for: own).sameKind(as: runBatch) ? nil : id })
    let isOwn = { @Sendable (planned: SyncPlan.PlannedDownload) -> Bool in
      !elsewhere.contains(planned.subscriptionId)
    }
    // Made before any batch starts: one that cannot be made must not leave one running.
    var planner = try planner()
    planner.readsWhole = mark.feedsOfDeadRuns
    // One for the whole run: a feed whose signed links expired is fetched again only once.
    let refresher = LinkRefresher(loader: FeedLoader(http: http))
    let manager = manager(for: runBatch, refresher: refresher)
    let places = Locked<[SubscriptionEpisode: Place]>([:])
    let results = Locked<[(place: Place, index: Int, result: DownloadResult)]>([])
    reporter.batchStarted(manager.progress)
    let plan = await manager.download(
      onFinish: { index, result in
        let place = result.job.subscriptionEpisode.flatMap { key in places.withLock { $0[key] } }
        results.withLock { $0.append((place ?? .unplanned, index, result)) }
        reporter.downloadEnded(result)
      },
      feeding: { intake in
        let plan = await planner.plan(
          subscriptions, concurrency: SyncPlanner.feedsInFlight(downloads: settings.concurrency)
        ) { index, part in
          var kept = part
          let own = part.downloads.filter(isOwn)
          // A new array, not `removeAll(where:)`, which keeps the old one's room for every
          // feed's downloads until the run ends.
          kept.downloads = part.downloads.filter { !isOwn($0) }
          places.withLock { places in
            for (position, planned) in own.enumerated() {
              if let key = planned.job.subscriptionEpisode {
                places[key] = Place(subscription: index, episode: position)
              }
            }
          }
          if !own.isEmpty { await intake.add(own.map { job(for: $0, allSettings: allSettings) }) }
          return kept
        }
        // Said as soon as every feed is in, while downloads may still be running.
        tellFailedFeeds(plan, reporter: reporter)
        return plan
      })
    reporter.batchEnded()
    var ended = results.withLock { $0 }.sorted { ($0.place, $0.index) < ($1.place, $1.index) }
      .map(\.result)
    let batches = try batches(plan, allSettings: allSettings)
    ended += await download(
      batches, allSettings: allSettings, refresher: refresher, reporter: reporter)
    return Downloaded(
      plan: plan, results: ended, batches: [runBatch] + batches, allSettings: allSettings,
      mark: mark)
  }

  /// Where a download of the run's own batch goes in its report and playlist: its
  /// subscription's place in the run, then the episode's place in what was planned for that
  /// subscription, so they read the same run after run whichever feed came in first.
  struct Place: Comparable, Sendable {
    var subscription: Int
    var episode: Int

    /// A result the planner did not place (none is expected): after every placed one.
    static let unplanned = Place(subscription: .max, episode: .max)

    static func < (lhs: Place, rhs: Place) -> Bool {
      (lhs.subscription, lhs.episode) < (rhs.subscription, rhs.episode)
    }
  }

  private func planner(dryRun: Bool = false) throws -> SyncPlanner {
    var planner = SyncPlanner(
      store: store, loader: FeedLoader(http: http), namer: try settings.namer(),
      dryRun: dryRun, filter: filter)
    // What the feed says of each episode is kept for a folder's feed and for its page alike.
    planner.writesFeed = settings.writeFeed || settings.writePage
    planner.writesInfo = settings.infoJSON
    planner.readsPages = readsPages
    return planner
  }

  private func tellFailedFeeds(_ plan: SyncPlan, reporter: some RunReporter) {
    for feed in plan.failedFeeds {
      if case .failed(let error) = feed.outcome {
        reporter.problem(error, subject: feed.subscription.name)
      }
    }
  }

  /// The empty batch a subscription with settings `own` goes in.
  private func batch(for own: SubscriptionSettings) -> SyncBatch {
    SyncBatch(
      own, runEpisodes: episodesDirectory, defaultEpisodes: store.paths.episodes,
      runConcurrency: settings.concurrency, runBytesPerSecond: settings.bytesPerSecond)
  }

  private func batches(_ plan: SyncPlan, allSettings: [Int64: SubscriptionSettings]) throws
    -> [SyncBatch]
  {
    SyncBatch.batches(
      plan.downloads, settings: allSettings, runEpisodes: episodesDirectory,
      defaultEpisodes: store.paths.episodes, runConcurrency: settings.concurrency,
      runBytesPerSecond: settings.bytesPerSecond)
  }

  /// Runs the batches one after another, each with its own folder, concurrency and budget.
  private func download(
    _ batches: [SyncBatch], allSettings: [Int64: SubscriptionSettings],
    refresher: LinkRefresher, reporter: some RunReporter
  ) async -> [DownloadResult] {
    var results: [DownloadResult] = []
    for batch in batches {
      let jobs = batch.downloads.map { job(for: $0, allSettings: allSettings) }
      results += await reporter.download(jobs, on: manager(for: batch, refresher: refresher))
    }
    return results
  }

  private func manager(for batch: SyncBatch, refresher: LinkRefresher) -> DownloadManager {
    var options = settings.options
    options.concurrency = batch.concurrency
    return DownloadManager(
      store: store, episodesDirectory: batch.episodesDirectory,
      http: http.limited(to: batch.bytesPerSecond), options: options, refresher: refresher)
  }

  /// The planned job with this run's side-file flags and its subscription's own settings.
  private func job(
    for download: SyncPlan.PlannedDownload, allSettings: [Int64: SubscriptionSettings]
  ) -> DownloadJob {
    // `set NAME --no-tags` and the like, as they are now (not when it was queued).
    var job = allSettings[download.subscriptionId, default: SubscriptionSettings()].sideFiles(
      of: settings.sideFiles(of: download.job))
    let subscriptionId = job.subscriptionEpisode?.subscriptionId
    if feedRequest(subscriptionId: subscriptionId, allSettings: allSettings) == nil
      && !pageAsked(subscriptionId: subscriptionId, allSettings: allSettings)
    {
      job.archive = nil
    }
    return job
  }

  /// The folder feed the run or a subscription asks for (`--write-feed`, `set --write-feed`);
  /// the run's base URL beats the subscription's.
  func feedRequest(subscriptionId: Int64?, allSettings: [Int64: SubscriptionSettings])
    -> FeedRequest?
  {
    let own = subscriptionId.flatMap { allSettings[$0] }
    guard settings.writeFeed || own?.feed == true else { return nil }
    return FeedRequest(
      baseURL: settings.feedBaseURL ?? own?.feedBaseURL.flatMap { try? FeedBaseURL($0) })
  }

  /// Whether `sync --write-page` or the subscription's `set --write-page` asks for its folder's
  /// page.
  func pageAsked(subscriptionId: Int64?, allSettings: [Int64: SubscriptionSettings]) -> Bool {
    settings.writePage || subscriptionId.flatMap { allSettings[$0]?.page } == true
  }
}
