import ArgumentParser
import Foundation
import PodcastKit

struct Sync: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Refresh subscriptions, download what is new, prune old files (the cron job).",
    discussion: """
      Feeds are fetched with conditional requests, so an unchanged feed costs one 304.
      A new subscription's first sync downloads only its newest episode (or what its \
      --first setting says), as chosen when `subscribe` read the feed.
      Exits 75 when another sync is running on the same library (use --wait to queue).
      """
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(
    help: "Subscriptions to sync (name, name prefix or number); default all.",
    completion: SubscriptionCompletion.names)
  var names: [String] = []

  @Flag(help: "Show what would be downloaded and where, change nothing.")
  var dryRun = false

  @Flag(help: "Print nothing unless something failed.")
  var quiet = false

  @Flag(help: "Wait for another running sync to finish instead of exiting 75.")
  var wait = false

  @OptionGroup var settings: DownloadSettings

  @OptionGroup(title: "Filters (on top of each subscription's own)") var filterOptions:
    FilterOptions

  @Flag(help: "Print JSON.")
  var json = false

  @Flag(help: "Print private feeds' tokens and passwords instead of masking them.")
  var showSecrets = false

  @Option(help: "Also write an .m3u8 playlist of what this run downloaded, newest first, to FILE.")
  var playlist: String?

  @OptionGroup var backgroundOptions: BackgroundOptions

  func run() async throws {
    Console.showsSecrets = showSecrets
    let context = CommandContext(libraryOptions: libraryOptions)
    let library = try context.openLibrary()
    if backgroundOptions.background {
      let pid = try backgroundOptions.detach(logDirectory: library.paths.stateDirectory)
      if !quiet {
        Console.print("Syncing in the background (pid \(pid)); follow it with `podcast status`.")
      }
      return
    }
    Interrupt.install(
      message: "interrupted: run podcast sync again to finish; partial downloads are kept")
    let lock = try acquireLock(library.paths)
    defer { lock.release() }
    let store = library.store
    let subscriptions = try chosenSubscriptions(store)
    if subscriptions.isEmpty && !quiet && !json {
      Console.print("No subscriptions yet. Add one with `podcast subscribe FEED`.")
      return
    }
    let planner = SyncPlanner(
      store: store, loader: FeedLoader(http: context.http), namer: try settings.namer(),
      dryRun: dryRun, filter: try filterOptions.predicate())
    let plan = await planner.plan(subscriptions)
    for feed in plan.failedFeeds {
      if case .failed(let error) = feed.outcome {
        Console.error("\(feed.subscription.name): \(CommandFailure.message(for: error))")
      }
    }
    let allSettings = try store.allSettings()
    let batches = SyncBatch.batches(
      plan.downloads, settings: allSettings,
      episodesFlag: libraryOptions.episodesDir, defaultEpisodes: library.paths.episodes,
      concurrencyFlag: settings.concurrency, rateFlag: try settings.rate())
    if dryRun {
      let planned = Dictionary(grouping: plan.downloads, by: \.subscriptionId).mapValues {
        $0.map(\.job.published)
      }
      let prunable = SyncPruner(store: store).wouldPrune(
        plan.feeds.map(\.subscription), adding: planned)
      printDryRun(batches, prunable: prunable, quiet: quiet)
      if !plan.failedFeeds.isEmpty { throw ExitCode.failure }
      return
    }
    report(movedFeeds: plan)
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
      let jobs = batch.downloads.map { download in
        var job = settings.sideFiles(of: download.job)
        // `set NAME --no-tags`: this subscription's episodes stay as served.
        if allSettings[download.subscriptionId]?.tags == false {
          job.tagging = nil
        }
        return job
      }
      results += await DownloadRun(manager: manager, json: json, quiet: quiet).perform(jobs)
    }
    let pruning = SyncPruner(store: store).prune(plan.feeds.map(\.subscription))
    for failure in pruning.failures { Console.error(failure) }
    let pruned = pruning.removed
    let besides = await completeSideFiles(
      plan, store: store, http: context.http(limitedTo: try settings.rate()))
    updateFolderPlaylists(
      files: results.episodeFiles + pruned, store: store,
      episodesDirectories: [library.paths.episodes] + batches.map(\.episodesDirectory)
        + allSettings.values.compactMap(\.episodesDir))
    let playlistWritten = writePlaylist(results, pruned: pruned)
    if json {
      let feedFailures = plan.failedFeeds.map { feed -> JSONValue in
        let reason =
          if case .failed(let error) = feed.outcome { CommandFailure.message(for: error) } else {
            ""
          }
        return .object([
          ("url", .string(feed.subscription.feedURL)),
          ("title", .string(feed.subscription.title ?? feed.subscription.name)),
          ("error", .string(reason)),
        ])
      }
      var document = DownloadRun.document(results, otherFailures: feedFailures)
      // Only when there is something to say: most runs touch nothing beside old episodes.
      let extras = [
        ("covers", besides.covers), ("sideFiles", besides.files), ("sideFileNotes", besides.notes),
      ].filter { !$0.1.isEmpty }
      if case .object(var members) = document, !extras.isEmpty {
        members += extras.map { ($0.0, JSONValue.array($0.1.map { .string($0) })) }
        document = .object(members)
      }
      Console.print(document.rendered())
    } else if !quiet {
      for file in besides.covers { Console.print("cover       \(file)") }
      for file in besides.files { Console.print("side file   \(file)") }
      for note in besides.notes { Console.print("note        \(Format.singleLine(note))") }
      for file in pruned { Console.print("pruned      \(file)") }
      Console.print(summary(plan, results: results, pruned: pruned.count))
    }
    let completed = backgroundOptions.runCompletionCommand(files: results.downloadedFiles)
    let failedDownloads =
      !completed || results.contains { if case .failed = $0.outcome { true } else { false } }
    if failedDownloads || !plan.failedFeeds.isEmpty || !pruning.failures.isEmpty
      || !playlistWritten
    {
      throw ExitCode.failure
    }
  }

  /// What belongs beside episodes this run did not download: the podcast's picture in the
  /// folders of feeds that now name another one (new episodes or not), and the transcripts
  /// and chapters an earlier run could not fetch. `--no-cover` and the other side-file flags
  /// hold here too.
  private func completeSideFiles(_ plan: SyncPlan, store: LibraryStore, http: HTTPClient) async
    -> (covers: [String], files: [String], notes: [String])
  {
    let manager = DownloadManager(store: store, http: http, options: settings.options)
    var covers: [String] = []
    var notes: [String] = []
    for feed in plan.feeds where !settings.noCover {
      guard let url = feed.imageURL else { continue }
      for result in await manager.refreshCovers(of: feed.subscription, imageURL: url) {
        switch result {
        case .success(let file): covers.append(file)
        case .failure(let error):
          notes.append("\(feed.subscription.name): cover not kept: \(error)")
        }
      }
    }
    var files: [String] = []
    for check in plan.sideFileChecks {
      var job = settings.sideFiles(of: check.job)
      job.folderCoverURL = nil
      let report = await manager.completeSideFiles(of: job, besides: check.file)
      files += report.files
      notes += report.sideFileNotes.map { "\(check.file): \($0)" }
    }
    return (covers, files, notes)
  }

  /// Each podcast folder the run added to or pruned gets its playlist rewritten. A failure is
  /// a note on stderr, not the run's failure: the episodes are in place all the same.
  private func updateFolderPlaylists(
    files: [String], store: LibraryStore, episodesDirectories: [String]
  ) {
    let failures = FolderPlaylist.update(
      foldersOf: files, episodesDirectories: episodesDirectories, store: store)
    for failure in failures { Console.error(String(describing: failure)) }
  }

  /// `--playlist FILE`: this run's new episodes, newest first (those pruned again are left out).
  /// False when it could not be written (said on stderr).
  private func writePlaylist(_ results: [DownloadResult], pruned: [String]) -> Bool {
    guard let playlist else { return true }
    let gone = Set(pruned)
    let fetched = results.compactMap { result -> (DownloadJob, String)? in
      guard case .downloaded(let file, _, _) = result.outcome, !gone.contains(file) else {
        return nil
      }
      return (result.job, file)
    }.sorted { first, second in
      // Same day: by path, so the order never depends on which download finished first.
      let (a, b) = (first.0.published ?? .distantPast, second.0.published ?? .distantPast)
      return a != b ? a > b : first.1 < second.1
    }
    let entries = fetched.map { job, file in
      Playlist.Entry(
        file: file, title: [job.podcastTitle, job.title].compactMap { $0 }.joined(separator: " - "))
    }
    do {
      try Playlist(entries: entries).write(to: playlist)
      return true
    } catch {
      Console.error(error)
      return false
    }
  }

  private func acquireLock(_ paths: LibraryPaths) throws -> LibraryLock {
    do {
      return try LibraryLock.acquire(paths: paths, wait: wait)
    } catch LibraryError.busy {
      throw CommandError.syncBusy(library: paths.root)
    }
  }

  private func chosenSubscriptions(_ store: LibraryStore) throws -> [Subscription] {
    if names.isEmpty { return try store.subscriptions() }
    var chosen: [Subscription] = []
    for name in names {
      let subscription = try store.subscription(matching: name)
      if !chosen.contains(where: { $0.id == subscription.id }) { chosen.append(subscription) }
    }
    return chosen
  }

  private func report(movedFeeds plan: SyncPlan) {
    guard !quiet, !json else { return }
    for feed in plan.feeds {
      if let old = feed.movedFrom {
        Console.print(
          "moved       \(feed.subscription.name): \(old) -> \(feed.subscription.feedURL)")
      }
    }
  }

  private func printDryRun(_ batches: [SyncBatch], prunable: [String], quiet: Bool) {
    let planned = batches.flatMap { batch in
      batch.downloads.map {
        (job: $0.job, file: batch.episodesDirectory + "/" + $0.job.relativePath)
      }
    }
    if json {
      let items = planned.map { planned -> JSONValue in
        .object([
          ("url", .string(planned.job.url)), ("title", .string(planned.job.title)),
          ("file", .string(planned.file)),
        ])
      }
      Console.print(
        JSONValue.object([
          ("wouldDownload", .array(items)), ("wouldPrune", .array(prunable.map { .string($0) })),
        ]).rendered())
      return
    }
    if planned.isEmpty && prunable.isEmpty && !quiet { Console.print("Nothing new.") }
    for planned in planned {
      Console.print("would download  \(Format.singleLine(planned.job.title ?? planned.job.url))")
      Console.print("                -> \(planned.file)")
    }
    for file in prunable { Console.print("would prune     \(file)") }
  }

  private func summary(_ plan: SyncPlan, results: [DownloadResult], pruned: Int) -> String {
    let updated = plan.feeds.filter { if case .updated = $0.outcome { true } else { false } }.count
    let feeds =
      "\(plan.feeds.count) feed\(plan.feeds.count == 1 ? "" : "s") checked, \(updated) with new episodes, \(plan.failedFeeds.count) failed"
    return results.isEmpty
      ? feeds + "; nothing to download."
      : feeds + "; " + DownloadRun.summary(results) + (pruned > 0 ? ", \(pruned) pruned" : "")
  }
}
