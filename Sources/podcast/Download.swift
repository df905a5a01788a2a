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

  @Option(help: "Download the newest N episodes.")
  var latest: Int?

  @Flag(help: "Download every episode.")
  var all = false

  @OptionGroup var settings: DownloadSettings

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
    _ = try EpisodeSelection(usage: selection)
  }

  func run() async throws {
    Console.showsSecrets = showSecrets
    let context = CommandContext(libraryOptions: libraryOptions)
    let resolved = try await context.resolve(feed)
    let episodes = resolved.feed.episodes
    if episodes.isEmpty && selection.isEmpty && !all && latest == nil {
      // The feed's fault, not a usage error: one line and exit 1, like any failed feed.
      throw CommandError.noEpisodesToDownload(feed: feed)
    }
    let predicate = try filterOptions.predicate()
    let indexes = try chosenIndexes(in: episodes, predicate: predicate)
    if indexes.isEmpty && predicate != nil && !episodes.isEmpty {
      throw CommandError.noEpisodeMatches(feed: feed)
    }
    let namer = try settings.namer()
    let keys = EpisodeIdentity.distinctKeys(of: episodes)
    let jobs = indexes.map { index in
      let episode = episodes[index - 1]
      return settings.sideFiles(
        of: DownloadJob(
          url: episode.enclosure.url, title: episode.title,
          podcastTitle: resolved.feed.podcast.title,
          relativePath: namer.relativePath(
            for: episode, podcast: resolved.feed.podcast, index: index),
          mimeType: episode.enclosure.type, declaredLength: episode.enclosure.length,
          feedURL: resolved.location, identityKeys: keys[index - 1],
          tagging: TagRequest(podcast: resolved.feed.podcast, episode: episode),
          folderCoverURL: resolved.feed.podcast.imageURL, transcripts: episode.transcripts,
          chaptersURL: episode.chapters?.url, published: episode.published))
    }
    let library = try context.openLibrary()
    if backgroundOptions.background {
      try startInBackground(library)
      return
    }
    let manager = DownloadManager(
      store: library.store, http: context.http(limitedTo: try settings.rate()),
      options: settings.options, refresher: LinkRefresher(loader: FeedLoader(http: context.http)))
    let results = await DownloadRun(manager: manager, json: json).perform(jobs)
    // A playlist that cannot be written is a note: the episodes are in place all the same.
    for failure in FolderPlaylist.update(
      foldersOf: results.episodeFiles, episodesDirectories: [library.store.paths.episodes],
      store: library.store)
    {
      Console.error(String(describing: failure))
    }
    if json {
      Console.print(DownloadRun.document(results).rendered())
    } else if jobs.count > 1 {
      Console.print(DownloadRun.summary(results))
    }
    let completed = backgroundOptions.runCompletionCommand(files: results.downloadedFiles)
    if !completed
      || results.contains(where: { if case .failed = $0.outcome { true } else { false } })
    {
      throw ExitCode.failure
    }
  }

  private func startInBackground(_ library: OpenLibrary) throws {
    do {
      let pid = try backgroundOptions.detach(logDirectory: library.paths.stateDirectory)
      Console.print("Downloading in the background (pid \(pid)); follow it with `podcast status`.")
      Console.print("Log: \(library.paths.stateDirectory)/background.log")
    } catch {
      throw CommandError.cannotStartInBackground(reason: CommandFailure.message(for: error))
    }
  }

  /// Filters narrow whatever was chosen: `--all`, `--latest N` and the default (the newest)
  /// count matching episodes only; a selection keeps its indexes that match.
  private func chosenIndexes(in episodes: [Episode], predicate: EpisodePredicate?) throws -> [Int] {
    let matching =
      predicate.map { $0.indexes(in: episodes) } ?? Array(episodes.indices.map { $0 + 1 })
    if all { return matching }
    if let latest { return Array(matching.prefix(latest)) }
    guard !selection.isEmpty else { return Array(matching.prefix(1)) }
    let chosen = try EpisodeSelection.checked(selection, episodeCount: episodes.count)
    guard let predicate else { return chosen.indexes }
    return chosen.indexes.filter { predicate.accepts(episodes[$0 - 1]) }
  }
}
