import ArgumentParser
import Foundation
import PodcastKit

struct Episodes: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "episodes",
    abstract: "List a feed's episodes, newest first; the number shown is the index to download."
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
    let context = CommandContext(libraryOptions: libraryOptions)
    let resolved = try await context.resolve(feed)
    let episodes = resolved.feed.episodes
    let predicate = try filterOptions.predicate()
    // Indexes, not copies: the numbers stay the feed's own when filtered, and a copy of
    // 20,000 episodes would be 5 MB.
    var indexes =
      predicate.map { $0.indexes(in: episodes) } ?? Array(episodes.indices.map { $0 + 1 })
    if let limit { indexes = Array(indexes.prefix(limit)) }
    // Every state is read before anything is printed: a library that cannot be read is one
    // error line, not a listing that calls downloaded episodes new.
    let store = try libraryOptions.openStoreForReading()
    let reader = try DownloadProgressReader(store: store, feedURL: resolved.location)
    let marks = try store?.marks() ?? [:]
    // Identity keys find an episode whose URL changed; without a library there is none.
    let keys = reader.hasLibrary ? EpisodeIdentity.distinctKeys(of: episodes) : []
    // Fields read in place: binding `episodes[index - 1]` copied the whole episode (a dozen
    // retains and releases) for its URL.
    let status = { (index: Int) -> ListedStatus in
      ListedStatus(
        download: reader.status(
          of: episodes[index - 1].enclosure.url, keys: keys.isEmpty ? [] : keys[index - 1]),
        mark: marks.isEmpty ? nil : marks[EpisodeMark.key(for: episodes[index - 1])])
    }
    if json {
      EpisodeListJSON.print(
        podcast: resolved.feed.podcast, episodes: episodes, indexes: indexes, status: status)
    } else {
      EpisodeTable.print(
        podcast: resolved.feed.podcast, episodes: episodes, indexes: indexes,
        statuses: indexes.map(status), total: episodes.count,
        filtered: predicate != nil)
    }
  }
}
