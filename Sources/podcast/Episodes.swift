import ArgumentParser
import PodcastKit

struct Episodes: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "episodes",
    abstract: "List a feed's episodes, newest first; the number shown is the index to download.",
    discussion: """
      For a subscription, the library's copy of its feed is listed when the server says it is
      unchanged, or (with one line on stderr saying how old it is) when the feed cannot be
      had. Episodes this library downloaded or marked that the feed no longer lists follow
      the feed's own, marked `gone`, without a number.
      """
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(
    help: "Feed URL, Apple Podcasts link, itunes:ID, local file, or subscription.",
    completion: SubscriptionCompletion.names)
  var feed: String

  @Option(help: "Show at most N episodes.")
  var limit: Int?

  @OptionGroup(title: "Filters") var filterOptions: FilterOptions

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
      resolver: CommandContext(libraryOptions: libraryOptions).resolver,
      paths: libraryOptions.paths
    ).run(feed: feed, filter: try filterOptions.filter(), limit: limit)
    if case .keptCopyInstead(let reason, let checked) = listing.origin {
      // Before the listing, so a terminal shows it above the table; exit 0, as the listing
      // is what was asked for.
      Console.error(
        "\(feed): \(reason); listing the copy of the feed kept \(Format.age(since: checked))")
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
  }
}
