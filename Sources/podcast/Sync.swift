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
      A paged feed (rel="next") is read to its last page on a first sync; later syncs \
      follow its pages only while a page holds nothing seen before.
      With a sync account (`podcast account add`), each run also exchanges subscriptions \
      and episode actions with its server; a server that fails never stops the feeds.
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

  @OptionGroup var settings: DownloadSettingsOptions

  @OptionGroup(title: "Filters (on top of each subscription's own)") var filterOptions:
    FilterOptions

  @Flag(help: "Print JSON.")
  var json = false

  @Flag(help: "Print private feeds' tokens and passwords instead of masking them.")
  var showSecrets = false

  @Flag(help: "Read paged feeds on their first page only, whatever each subscription says.")
  var noPages = false

  @Option(help: "Also write an .m3u8 playlist of what this run downloaded, newest first, to FILE.")
  var playlist: String?

  @Flag(help: "Leave the sync account out of this run (see `podcast account`).")
  var noAccount = false

  @OptionGroup var backgroundOptions: BackgroundOptions

  func run() async throws {
    Console.showsSecrets = showSecrets
    let context = CommandContext(libraryOptions: libraryOptions)
    let library = try context.openLibrary()
    if backgroundOptions.background {
      return try startInBackground(library)
    }
    Interrupt.install(
      message: "interrupted: run podcast sync again to finish; partial downloads are kept")
    let downloadSettings = try settings.settings()
    var sync = try SyncSubscriptions(
      library: library, network: context.network, settings: downloadSettings)
    sync.account = AccountDefaults.options(exchanges: !noAccount)
    sync.account.nameTemplate = downloadSettings.nameTemplate
    sync.episodesDirectory = libraryOptions.episodesDir
    sync.filter = try filterOptions.predicate()
    sync.playlist = playlist
    sync.readsPages = !noPages
    let reporter = DownloadRun(json: json, quiet: quiet, root: context.paths.root)
    do {
      if dryRun {
        let preview = try await underLock(sync, library) {
          try await $0.preview(names, reporter: reporter)
        }
        Interrupt.waitForExitIfStopping()
        if preview.subscriptions == 0 && preview.account == nil {
          showNoSubscriptions(library)
          if !quiet && !json { return }
        }
        show(preview)
        if preview.feedsFailed || preview.account?.failed == true { throw ExitCode.failure }
        return
      }
      let outcome = try await underLock(sync, library) {
        try await $0.run(names, reporter: reporter)
      }
      Interrupt.waitForExitIfStopping()
      if outcome.subscriptions == 0 && !quiet && !json {
        for line in outcome.account.map({ AccountReport.lines($0, summary: false) }) ?? [] {
          Console.print(line)
        }
        showNoSubscriptions(library)
        if outcome.failed { throw ExitCode.failure }
        return
      }
      if outcome.subscriptions == 0 { showNoSubscriptions(library) }
      try show(outcome)
    } catch LibraryError.busy {
      throw CommandError.syncBusy(library: library.paths.root)
    }
  }

  private func show(_ outcome: SyncOutcome) throws {
    if !quiet && !json {
      for line in SyncReport.moves(outcome.plan) { Console.print(line) }
      for line in outcome.account.map({ AccountReport.lines($0, summary: false) }) ?? [] {
        Console.print(line)
      }
    }
    if json {
      Console.print(SyncDocument(outcome: outcome).value.rendered())
    } else if !quiet {
      for line in SyncReport(outcome: outcome).lines { Console.print(line) }
    }
    let completed = backgroundOptions.runCompletionCommand(files: outcome.results.downloadedFiles)
    if !completed || outcome.failed { throw ExitCode.failure }
  }

  /// Said even with --quiet or --json, on stderr then (exit 0): a cron job run as the wrong
  /// user or with the wrong HOME finds no subscriptions, and someone should notice.
  private func showNoSubscriptions(_ library: Library) {
    if quiet || json {
      Console.error(
        "no subscriptions in \(library.paths.root): nothing to sync (add one with "
          + "`podcast subscribe FEED`)")
    } else {
      Console.print("No subscriptions yet. Add one with `podcast subscribe FEED`.")
    }
  }

  /// `body` on the library's sync lock; with --wait, a lock another sync holds is said once
  /// (and whose it is), then waited for: a queued cron job does not look hung.
  private func underLock<Result>(
    _ sync: SyncSubscriptions, _ library: Library,
    _ body: (SyncSubscriptions) async throws -> Result
  ) async throws -> Result {
    do {
      return try await body(sync)
    } catch LibraryError.busy where wait {
      if !quiet {
        Console.error(
          "waiting for another sync of \(library.paths.root) to finish"
            + (library.syncHolder.map { " (pid \($0))" } ?? ""))
      }
      var waiting = sync
      waiting.waitsForLock = true
      return try await body(waiting)
    }
  }

  private func startInBackground(_ library: Library) throws {
    let started: (pid: Int32, log: String)
    do {
      started = try backgroundOptions.detach(logDirectory: library.paths.stateDirectory)
    } catch {
      throw CommandError.cannotStartInBackground(reason: CommandFailure.message(for: error))
    }
    if !quiet || json { BackgroundOptions.announce(started, doing: "Syncing", json: json) }
  }

  private func show(_ preview: SyncPreview) {
    if json {
      Console.print(preview.document.rendered())
    } else {
      let width = Console.isTerminal ? Console.width : .max
      for line in preview.lines(quiet: quiet, width: width) { Console.print(line) }
    }
  }

}
