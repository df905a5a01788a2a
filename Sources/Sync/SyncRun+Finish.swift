import Basics
import Downloads
import Model
import SideFiles
import Store

extension SyncRun {
  /// What follows the downloads, in this order: prune, side files beside earlier episodes,
  /// the podcast folders' views (with those of the files dead runs finished, see `RunMark`),
  /// `--playlist`. A view or playlist that cannot be written is told, not the run's failure:
  /// the episodes are in place all the same.
  package func finish(_ downloaded: Downloaded, reporter: some RunReporter) async -> SyncOutcome {
    let plan = downloaded.plan
    let results = downloaded.results
    let allSettings = downloaded.allSettings
    let pruning = SyncPruner(store: store).prune(plan.feeds.map(\.subscription))
    for failure in pruning.failures { reporter.problem(failure, subject: nil) }
    let sideFiles = await SideFileCompletion.complete(
      plan, store: store, http: http.limited(to: settings.bytesPerSecond), settings: settings,
      subscriptionSettings: allSettings)
    let episodesDirectories =
      [store.paths.episodes] + downloaded.batches.map(\.episodesDirectory)
      + allSettings.values.compactMap(\.episodesDir)
    let finishedByDeadRuns = downloaded.mark.finishedByDeadRuns
    let touched =
      results.touchedFiles { result in
        FolderRequest(
          feed: feedRequest(
            subscriptionId: result.job.subscriptionEpisode?.subscriptionId,
            allSettings: allSettings))
      } + pruning.removed.map { TouchedFile($0, .changed) }
      + askedFeeds(plan, allSettings: allSettings)
      + finishedByDeadRuns.map { TouchedFile($0, .changed) }
    for failure in FolderViews.update(
      touched, episodesDirectories: episodesDirectories, store: store)
    {
      reporter.problem(failure, subject: nil)
    }
    var outcome = SyncOutcome()
    outcome.plan = plan
    outcome.results = results
    outcome.pruning = pruning
    outcome.sideFiles = sideFiles
    outcome.playlistWritten = writePlaylist(results, pruned: pruning.removed, reporter: reporter)
    withExtendedLifetime(downloaded.mark) {}
    return outcome
  }

  /// The files each synced subscription that asks for a feed has, with that request: its
  /// feed is written on the run after `set NAME --write-feed` whether or not anything is new,
  /// and follows a changed base URL.
  private func askedFeeds(_ plan: SyncPlan, allSettings: [Int64: SubscriptionSettings])
    -> [TouchedFile]
  {
    plan.feeds.flatMap { feed -> [TouchedFile] in
      let subscription = feed.subscription
      guard let request = feedRequest(subscriptionId: subscription.id, allSettings: allSettings)
      else { return [] }
      let files =
        (try? FinishedDownloads(store: store).files(feedURL: subscription.feedURL)) ?? []
      return files.map { TouchedFile($0, .asked, request: FolderRequest(feed: request)) }
    }
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
