import Foundation
import PodcastKit

/// One `podcast sync` once it holds the library's lock, in named steps: `plan` refreshes every
/// feed; then `preview` (`--dry-run`) or `perform`, which downloads in batches, prunes,
/// completes side files and rewrites playlists. Failures are said on stderr as they happen;
/// what the run did comes back as a `SyncOutcome` for `SyncReport` or `SyncDocument` to show.
struct SyncRun {
  let library: OpenLibrary
  let context: CommandContext
  let settings: DownloadSettings
  /// `--episodes-dir` as typed: where this run was told to put things (see `SyncBatch`).
  let episodesFlag: String?
  /// The run's own filter (`sync --match ...`), on top of each subscription's.
  let filter: EpisodePredicate?
  let dryRun: Bool
  let json: Bool
  let quiet: Bool
  /// `--playlist FILE`.
  let playlist: String?

  private var store: LibraryStore { library.store }

  /// Refreshes the feeds and decides what to download; each feed that failed is said now.
  func plan(_ subscriptions: [Subscription]) async throws -> SyncPlan {
    let planner = SyncPlanner(
      store: store, loader: FeedLoader(http: context.http), namer: try settings.namer(),
      dryRun: dryRun, filter: filter)
    let plan = await planner.plan(subscriptions)
    for feed in plan.failedFeeds {
      if case .failed(let error) = feed.outcome {
        Console.error("\(feed.subscription.name): \(CommandFailure.message(for: error))")
      }
    }
    return plan
  }

  /// What `perform` would download, where, and what it would prune; nothing changes.
  func preview(_ plan: SyncPlan) throws -> SyncPreview {
    let batches = try batches(plan, allSettings: try store.allSettings())
    let planned = Dictionary(grouping: plan.downloads, by: \.subscriptionId).mapValues {
      $0.map(\.job.published)
    }
    let prunable = SyncPruner(store: store).wouldPrune(
      plan.feeds.map(\.subscription), adding: planned)
    return SyncPreview(batches: batches, prunable: prunable)
  }

  func perform(_ plan: SyncPlan) async throws -> SyncOutcome {
    let allSettings = try store.allSettings()
    let batches = try batches(plan, allSettings: allSettings)
    let results = await download(batches, allSettings: allSettings)
    let pruning = prune(plan)
    let sideFiles = await SideFileCompletion.complete(
      plan, store: store, http: context.http(limitedTo: try settings.rate()), settings: settings,
      subscriptionSettings: allSettings)
    updateFolderPlaylists(
      files: results.episodeFiles + pruning.removed,
      episodesDirectories: [library.paths.episodes] + batches.map(\.episodesDirectory)
        + allSettings.values.compactMap(\.episodesDir))
    let playlistWritten = writePlaylist(results, pruned: pruning.removed)
    return SyncOutcome(
      plan: plan, results: results, pruning: pruning, sideFiles: sideFiles,
      playlistWritten: playlistWritten)
  }

  private func batches(_ plan: SyncPlan, allSettings: [Int64: SubscriptionSettings]) throws
    -> [SyncBatch]
  {
    SyncBatch.batches(
      plan.downloads, settings: allSettings, episodesFlag: episodesFlag,
      defaultEpisodes: library.paths.episodes, concurrencyFlag: settings.concurrency,
      rateFlag: try settings.rate())
  }

  /// Runs the batches one after another, each with its own folder, concurrency and budget.
  private func download(_ batches: [SyncBatch], allSettings: [Int64: SubscriptionSettings]) async
    -> [DownloadResult]
  {
    var results: [DownloadResult] = []
    // One for the whole run: a feed whose signed links expired is fetched again only once.
    let refresher = LinkRefresher(loader: FeedLoader(http: context.http))
    for batch in batches {
      var options = settings.options
      options.concurrency = batch.concurrency
      let manager = DownloadManager(
        store: store, episodesDirectory: batch.episodesDirectory,
        http: context.http(limitedTo: batch.bytesPerSecond), options: options,
        refresher: refresher)
      let jobs = batch.downloads.map { job(for: $0, allSettings: allSettings) }
      results += await DownloadRun(manager: manager, json: json, quiet: quiet).perform(jobs)
    }
    return results
  }

  /// The planned job with this run's side-file flags and its subscription's own settings.
  private func job(
    for download: SyncPlan.PlannedDownload, allSettings: [Int64: SubscriptionSettings]
  ) -> DownloadJob {
    // `set NAME --no-tags` and the like, as they are now (not when it was queued).
    allSettings[download.subscriptionId, default: SubscriptionSettings()].sideFiles(
      of: settings.sideFiles(of: download.job))
  }

  /// Deletes what is past each subscription's `keep`; a file that could not go is said now.
  private func prune(_ plan: SyncPlan) -> SyncPruner.Outcome {
    let pruning = SyncPruner(store: store).prune(plan.feeds.map(\.subscription))
    for failure in pruning.failures { Console.error(failure) }
    return pruning
  }

  /// Each podcast folder the run added to or pruned gets its playlist rewritten. A failure is
  /// a note on stderr, not the run's failure: the episodes are in place all the same.
  private func updateFolderPlaylists(files: [String], episodesDirectories: [String]) {
    let failures = FolderPlaylist.update(
      foldersOf: files, episodesDirectories: episodesDirectories, store: store)
    for failure in failures { Console.error(String(describing: failure)) }
  }

  /// `--playlist FILE`; false when it could not be written (said on stderr).
  private func writePlaylist(_ results: [DownloadResult], pruned: [String]) -> Bool {
    guard let playlist else { return true }
    do {
      try FetchedPlaylist(results, pruned: pruned).write(to: playlist)
      return true
    } catch {
      Console.error(error)
      return false
    }
  }
}
