import ArgumentParser
import Foundation
import PodcastKit

struct Download: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "download",
    abstract: "Download episodes by the index `podcast episodes` shows (1 is the newest).",
    discussion: """
      SELECTION is one or more of 3, 2-5, 1,4,9. With none, the newest episode.
      Already downloaded episodes are skipped; partly downloaded ones resume.
      """
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(
    help: "Feed URL, Apple Podcasts link, itunes:ID, local file, or subscription.",
    completion: SubscriptionCompletion.names)
  var feed: String

  @Argument(help: "Episode indexes: 3, 2-5, 1,4,9.")
  var selection: [String] = []

  // A number option takes the next word whatever it looks like, so `--latest -1` is
  // refused for its value, not taken for an unknown option and a missing value.
  @Option(parsing: .unconditional, help: "Download the newest N episodes.")
  var latest: Int?

  @Flag(help: "Download every episode.")
  var all = false

  @Flag(help: "Read a paged feed's first page only: indexes count its episodes alone.")
  var noPages = false

  @OptionGroup var settings: DownloadSettingsOptions

  @OptionGroup(title: "Filters") var filterOptions: FilterOptions

  @Flag(help: "Print JSON.")
  var json = false

  @Flag(help: "Print private feeds' tokens and passwords instead of masking them.")
  var showSecrets = false

  @OptionGroup var backgroundOptions: BackgroundOptions

  func validate() throws {
    let modes = [!selection.isEmpty, latest != nil, all].filter { $0 }.count
    if modes > 1 { throw ValidationError("use a selection, --latest or --all, not several") }
    if let latest, latest < 1 { throw ValidationError("--latest must be at least 1") }
    // The selection's words are read in `run`: argument-parser calls `validate` before it
    // reports an unknown option, and `1 --frobnicate x` must name the option, not say that
    // `x` is not a selection.
  }

  func run() async throws {
    Console.showsSecrets = showSecrets
    // Read before the feed is fetched: a mistyped selection is said at once, offline.
    let choice = try choice()
    let context = CommandContext(libraryOptions: libraryOptions)
    let resolved = try await context.resolve(feed, allPages: !noPages)
    let download = try DownloadEpisodes(
      choice: choice, filter: try filterOptions.predicate(), settings: try settings.settings())
    let jobs: [DownloadJob]
    do {
      jobs = try download.jobs(for: resolved, feed: feed)
    } catch let error as SelectionError {
      // An index past the pages that could be read is that page's failure, not a typo.
      if let problem = resolved.pageProblem, problem.isFailure { throw problem }
      // An index the feed does not have is a usage error, with the command's usage.
      throw ValidationError(CommandFailure.message(for: error))
    }
    // Said before the downloads start: what is chosen comes from the pages that were read.
    if let problem = resolved.pageProblem { Console.error(problem) }
    let pagesFailed = resolved.pageProblem?.isFailure == true
    let library = try context.openLibrary()
    if backgroundOptions.background {
      try startInBackground(library)
      return
    }
    let results = await download.perform(
      jobs, library: library, network: context.network,
      reporter: DownloadRun(json: json, root: context.paths.root))
    Interrupt.waitForExitIfStopping()
    if json {
      Console.print(DownloadRun.document(results).rendered())
    } else if jobs.count > 1 {
      Console.print(DownloadRun.summary(results))
    }
    let completed = backgroundOptions.runCompletionCommand(files: results.downloadedFiles)
    if !completed || pagesFailed
      || results.contains(where: { if case .failed = $0.outcome { true } else { false } })
    {
      throw ExitCode.failure
    }
  }

  private func startInBackground(_ library: Library) throws {
    do {
      let started = try backgroundOptions.detach(logDirectory: library.paths.stateDirectory)
      BackgroundOptions.announce(started, doing: "Downloading", json: json)
    } catch {
      throw CommandError.cannotStartInBackground(reason: CommandFailure.message(for: error))
    }
  }

  private func choice() throws -> DownloadEpisodes.Choice {
    if all { return .all }
    if let latest { return .latest(latest) }
    if selection.isEmpty { return .newest }
    return .indexes(try EpisodeSelection(usage: selection))
  }
}
