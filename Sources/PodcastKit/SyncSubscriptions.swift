import Basics
import Downloads
import Exchange
import Foundation
import Model
import Selection
import SideFiles
import Source
import Store
import Sync
import Transfer

/// `podcast sync`. `run` takes the library's sync lock, refreshes every feed and downloads as
/// each is planned, then prunes, completes side files and rewrites feeds and playlists;
/// `preview` (`--dry-run`) takes the lock, plans and says what `run` would do. Problems are
/// told to the reporter as they happen; what the run did comes back as a `SyncOutcome`.
public struct SyncSubscriptions: Sendable {
  private let store: LibraryStore
  private let http: HTTPClient
  private let network: Network
  public let settings: DownloadSettings
  /// Where this run puts every episode, over each subscription's own folder (see `SyncBatch`);
  /// nil: each subscription's folder, else the library's Episodes directory.
  public var episodesDirectory: String?
  /// The run's own filter (`sync --match ...`), on top of each subscription's.
  public var filter: EpisodePredicate?
  /// A playlist of what this run downloaded, written to this path.
  public var playlist: String?
  /// False: paged feeds are read on their first page only.
  public var readsPages = true
  /// Whether to wait for another sync of this library to end, instead of throwing
  /// `LibraryError.busy` at once.
  public var waitsForLock = false
  /// How the run treats the library's account, if it has one (see `AccountExchange`).
  public var account = AccountExchangeOptions()

  /// Throws when `settings` are out of their bounds (`DownloadSettings.check`).
  public init(library: Library, network: Network, settings: DownloadSettings) throws {
    try settings.check()
    self.store = library.store
    self.http = network.http
    self.network = network
    self.settings = settings
  }

  /// The subscriptions `names` pick (name, name prefix or number), each once, in the order
  /// named; all of them when `names` is empty.
  public func subscriptions(named names: [String]) throws -> [Subscription] {
    if names.isEmpty { return try store.subscriptions() }
    var chosen: [Subscription] = []
    for name in names {
      let subscription = try store.subscription(matching: name)
      if !chosen.contains(where: { $0.id == subscription.id }) { chosen.append(subscription) }
    }
    return chosen
  }

  /// What `run` would download, where, and what it would prune, for the subscriptions `names`
  /// pick; nothing changes. Each feed that failed is told as it fails.
  public func preview(_ names: [String], reporter: some RunReporter) async throws -> SyncPreview {
    let lock = try LibraryLock.acquire(paths: store.paths, wait: waitsForLock)
    defer { lock.release() }
    let subscriptions = try subscriptions(named: names)
    let plan = try await planner(dryRun: true).plan(
      subscriptions, concurrency: SyncPlanner.feedsInFlight(downloads: settings.concurrency))
    tellFailedFeeds(plan, reporter: reporter)
    let batches = try batches(plan, allSettings: try store.allSettings())
    let planned = Dictionary(grouping: plan.downloads, by: \.subscriptionId).mapValues {
      $0.map(\.job.published)
    }
    let prunable = SyncPruner(store: store).wouldPrune(
      plan.feeds.map(\.subscription), adding: planned)
    var preview = SyncPreview(
      subscriptions: subscriptions.count, batches: batches, prunable: prunable,
      feedsFailed: !plan.failedFeeds.isEmpty)
    preview.account = try await accountExchange(reporter: reporter)?.preview()
    return preview
  }

  /// The sync of the subscriptions `names` pick (all when empty), holding the library's sync
  /// lock from before it reads them until it is done.
  public func run(_ names: [String], reporter: some RunReporter) async throws -> SyncOutcome {
    let lock = try LibraryLock.acquire(paths: store.paths, wait: waitsForLock)
    defer { lock.release() }
    let account = try accountExchange(reporter: reporter)
    let exchanged = await account?.subscriptions()
    let subscriptions = try subscriptions(named: names)
    guard !subscriptions.isEmpty else {
      var outcome = SyncOutcome()
      outcome.account = await account?.actions(continuing: exchanged)
      return outcome
    }
    var outcome = try await run(
      subscriptions, account: account, exchanged: exchanged, reporter: reporter)
    outcome.subscriptions = subscriptions.count
    return outcome
  }

  /// The library's account exchange for this run; nil without an account or with
  /// `sync --no-account`.
  private func accountExchange(reporter: some RunReporter) throws -> AccountExchange? {
    guard account.exchanges else { return nil }
    return try ArrivingFeed.exchange(store: store, network: network, options: account) {
      reporter.problem($0, subject: nil)
    }
  }

  /// The whole run, planning and downloading overlapped: the downloads of subscriptions that keep
  /// to the run's own folder, concurrency and budget start as soon as their feed is planned,
  /// so they do not wait for the slowest feed (at 80 ms a round trip, the feeds of a first
  /// sync of 200 took ~1 s before the first episode began). Subscriptions with settings of
  /// their own go in batches after, one after another. Each download
  /// was queued in the library with its feed's refresh, so a kill loses none of them.
  ///
  /// What the run holds grows with its feeds only by what it reports: the planner runs only
  /// as far ahead of the downloads as the manager's queue allows, and each download leaves a
  /// summary behind (`DownloadResult.Summary`), not its job.
  private func run(
    _ subscriptions: [Subscription], account: AccountExchange?,
    exchanged: AccountExchangeReport?, reporter: some RunReporter
  ) async throws -> SyncOutcome {
    let allSettings = try store.allSettings()
    let runBatch = batch(for: SubscriptionSettings())
    // What killed or cut-off runs left goes first; this run is marked until it ends.
    let mark = RunMark(store: store, episodesDirectory: runBatch.episodesDirectory)
    defer { withExtendedLifetime(mark) {} }
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
    // Each result with its place in the plan (subscriptions as listed, each feed's episodes
    // as chosen), so reports and playlists read the same run after run whichever feed came
    // in first.
    let order = Locked<[SubscriptionEpisode: Int]>([:])
    let results = Locked<[(order: Int, index: Int, result: DownloadResult)]>([])
    reporter.batchStarted(manager.progress)
    let plan = await manager.download(
      onFinish: { index, result in
        let place = result.job.subscriptionEpisode.flatMap { key in order.withLock { $0[key] } }
        results.withLock { $0.append((place ?? Int.max, index, result)) }
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
          order.withLock { order in
            for (position, planned) in own.enumerated() {
              if let key = planned.job.subscriptionEpisode {
                order[key] = index << 20 | min(position, 1 << 20 - 1)
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
    var ended = results.withLock { $0 }.sorted { ($0.order, $0.index) < ($1.order, $1.index) }
      .map(\.result)
    let batches = try batches(plan, allSettings: allSettings)
    ended += await download(
      batches, allSettings: allSettings, refresher: refresher, reporter: reporter)
    // Before pruning: the plays it records are what `--delete-played` prunes by.
    let accountReport = await account?.actions(continuing: exchanged)
    var outcome = await finish(
      plan, results: ended, batches: [runBatch] + batches, allSettings: allSettings,
      finishedByDeadRuns: mark.finishedByDeadRuns, reporter: reporter)
    outcome.account = accountReport
    return outcome
  }

  private func planner(dryRun: Bool = false) throws -> SyncPlanner {
    var planner = SyncPlanner(
      store: store, loader: FeedLoader(http: http), namer: try settings.namer(),
      dryRun: dryRun, filter: filter)
    planner.writesFeed = settings.writeFeed
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

  /// What follows the downloads, in this order: prune, side files beside earlier episodes,
  /// folder feeds, playlists (with those of `finishedByDeadRuns`, see `RunMark`), `--playlist`.
  private func finish(
    _ plan: SyncPlan, results: [DownloadResult], batches: [SyncBatch],
    allSettings: [Int64: SubscriptionSettings], finishedByDeadRuns: [String],
    reporter: some RunReporter
  ) async -> SyncOutcome {
    let pruning = SyncPruner(store: store).prune(plan.feeds.map(\.subscription))
    for failure in pruning.failures { reporter.problem(failure, subject: nil) }
    let sideFiles = await SideFileCompletion.complete(
      plan, store: store, http: http.limited(to: settings.bytesPerSecond), settings: settings,
      subscriptionSettings: allSettings)
    // A playlist or feed that cannot be written is told, not the run's failure: the episodes
    // are in place all the same. Feeds first: a folder left empty goes with its playlist.
    let episodesDirectories =
      [store.paths.episodes] + batches.map(\.episodesDirectory)
      + allSettings.values.compactMap(\.episodesDir)
    let fed: [(file: String, request: FeedRequest?)] = results.compactMap { result in
      switch result.outcome {
      case .downloaded(let file, _, _), .alreadyDownloaded(let file):
        return (
          file,
          feedRequest(
            subscriptionId: result.job.subscriptionEpisode?.subscriptionId, allSettings: allSettings
          )
        )
      case .failed: return nil
      }
    }
    for failure in FolderFeed.update(
      foldersOf: fed + pruning.removed.map { ($0, nil) }
        + askedFeeds(plan, allSettings: allSettings) + finishedByDeadRuns.map { ($0, nil) },
      episodesDirectories: episodesDirectories, store: store)
    {
      reporter.problem(failure, subject: nil)
    }
    for failure in FolderPlaylist.update(
      foldersOf: results.filesForPlaylists() + pruning.removed + finishedByDeadRuns,
      episodesDirectories: episodesDirectories, store: store)
    {
      reporter.problem(failure, subject: nil)
    }
    let playlistWritten = writePlaylist(results, pruned: pruning.removed, reporter: reporter)
    return SyncOutcome(
      plan: plan, results: results, pruning: pruning, sideFiles: sideFiles,
      playlistWritten: playlistWritten)
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
    if feedRequest(for: job, allSettings: allSettings) == nil { job.archive = nil }
    return job
  }

  /// The folder feed `job`'s run or subscription asks for (`--write-feed`, `set --write-feed`);
  /// the run's base URL beats the subscription's.
  private func feedRequest(for job: DownloadJob, allSettings: [Int64: SubscriptionSettings])
    -> FeedRequest?
  {
    feedRequest(subscriptionId: job.subscriptionEpisode?.subscriptionId, allSettings: allSettings)
  }

  /// The files each synced subscription that asks for a feed has, with that request: its
  /// feed is written on the run after `set NAME --write-feed` whether or not anything is new,
  /// and follows a changed base URL.
  private func askedFeeds(_ plan: SyncPlan, allSettings: [Int64: SubscriptionSettings])
    -> [(file: String, request: FeedRequest?)]
  {
    plan.feeds.flatMap { feed -> [(file: String, request: FeedRequest?)] in
      let subscription = feed.subscription
      guard let request = feedRequest(subscriptionId: subscription.id, allSettings: allSettings)
      else { return [] }
      let files = (try? store.finishedFiles(feedURL: subscription.feedURL)) ?? []
      return files.map { ($0, request) }
    }
  }

  private func feedRequest(subscriptionId: Int64?, allSettings: [Int64: SubscriptionSettings])
    -> FeedRequest?
  {
    let own = subscriptionId.flatMap { allSettings[$0] }
    guard settings.writeFeed || own?.feed == true else { return nil }
    return FeedRequest(
      baseURL: settings.feedBaseURL ?? own?.feedBaseURL.flatMap { try? FeedBaseURL($0) })
  }

  /// `--playlist FILE`; false when it could not be written (told to the reporter).
  private func writePlaylist(
    _ results: [DownloadResult], pruned: [String], reporter: some RunReporter
  ) -> Bool {
    guard let playlist else { return true }
    do {
      try FetchedPlaylist(results, pruned: pruned).write(to: playlist)
      return true
    } catch {
      reporter.problem(error, subject: nil)
      return false
    }
  }
}
