import ArgumentParser
import PodcastKit

struct Episodes: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "episodes",
    abstract: "List a feed's episodes, newest first; the number shown is the index to download.",
    discussion: """
      For a subscription, the library's copy of its feed is listed when the server says it is \
      unchanged, or (with one line on stderr saying how old it is) when the feed cannot be \
      had. Episodes this library downloaded or marked that the feed no longer lists follow \
      the feed's own, marked `gone`, without a number.
      """
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(
    help: "Feed URL, Apple Podcasts link, itunes:ID, local file, or subscription.",
    completion: SubscriptionCompletion.names)
  var feed: String

  @Option(parsing: .unconditional, help: "Show at most N episodes.")
  var limit: Int?

  @OptionGroup(title: "Filters") var filterOptions: FilterOptions

  @Flag(help: "Read a paged feed's first page only (its newest episodes), not every page.")
  var noPages = false

  @Flag(help: "Print JSON.")
  var json = false

  @Flag(help: "Print private feeds' tokens and passwords instead of masking them.")
  var showSecrets = false

  func validate() throws {
    if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
  }

  func run() async throws {
    Console.showsSecrets = showSecrets
    let listing = try await ListEpisodes(
      paths: libraryOptions.paths,
      network: CommandContext(libraryOptions: libraryOptions).network
    ).run(feed: feed, filter: try filterOptions.filter(), limit: limit, allPages: !noPages)
    if case .keptCopyInstead(let reason, let checked, let firstPageOnly) = listing.origin {
      // Before the listing, so a terminal shows it above the table; exit 0, as the listing
      // is what was asked for.
      Console.error(
        "\(feed): \(reason); listing the copy of the feed kept \(Format.age(since: checked))"
          + (firstPageOnly ? " (its first page only: the later pages are not kept)" : ""))
    }
    if json {
      EpisodeListJSON.print(
        podcast: listing.podcast, episodes: listing.episodes, indexes: listing.indexes,
        status: listing.status(at:), dropped: listing.dropped)
    } else {
      EpisodeTable.print(
        podcast: listing.podcast, episodes: listing.episodes, indexes: listing.indexes,
        statuses: listing.indexes.map(listing.status(at:)), total: listing.total,
        filtered: listing.filtered, dropped: listing.dropped, droppedTotal: listing.droppedTotal)
    }
    // After the listing, so a pipe gets every episode read; a page that failed means episodes
    // may be missing, which a script must be able to tell (exit 1), as `ls` does for an
    // entry it cannot read.
    if let problem = listing.pageProblem {
      Console.error(problem)
      if problem.isFailure { throw ExitCode.failure }
    }
  }
}
