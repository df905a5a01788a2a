import Basics
import Downloads
import Model
import SideFiles
import Store

extension SyncRun {
  /// What follows the downloads, in this order: prune, side files beside earlier episodes,
  /// the podcast folders' views (with those of the files dead runs finished, see `RunMark`),
  /// `--playlist`. A view or playlist that cannot be written is told, not the run's failure:
  /// the episodes are in place all the same. `playsChanged`: the account's exchange recorded
  /// plays, which the synced subscriptions' pages show.
  package func finish(
    _ downloaded: Downloaded, playsChanged: Bool = false, reporter: some RunReporter
  ) async -> SyncOutcome {
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
        let subscriptionId = result.job.subscriptionEpisode?.subscriptionId
        return FolderRequest(
          feed: feedRequest(subscriptionId: subscriptionId, allSettings: allSettings),
          page: pageAsked(subscriptionId: subscriptionId, allSettings: allSettings))
      } + pruning.removed.map { TouchedFile($0, .changed) }
      + askedViews(plan, allSettings: allSettings, playsChanged: playsChanged)
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

  /// The files each synced subscription that asks for a feed or a page has, with that
  /// request: its feed and page are written on the run after `set NAME --write-feed` or
  /// `--write-page` whether or not anything is new, and the feed follows a changed base URL.
  /// When the account's server changed what was played, every synced subscription's files
  /// are looked at, so the pages there show it.
  private func askedViews(
    _ plan: SyncPlan, allSettings: [Int64: SubscriptionSettings], playsChanged: Bool
  ) -> [TouchedFile] {
    plan.feeds.flatMap { feed -> [TouchedFile] in
      let subscription = feed.subscription
      let request = FolderRequest(
        feed: feedRequest(subscriptionId: subscription.id, allSettings: allSettings),
        page: pageAsked(subscriptionId: subscription.id, allSettings: allSettings))
      guard request != FolderRequest() || playsChanged else { return [] }
      let files =
        (try? FinishedDownloads(store: store).files(feedURL: subscription.feedURL)) ?? []
      return files.map { TouchedFile($0, playsChanged ? .changed : .asked, request: request) }
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
