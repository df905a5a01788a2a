import ArgumentParser
import Foundation
import PodcastKit

struct Episodes: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List a feed's episodes, newest first; the number shown is the index to download."
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(help: "Feed URL, Apple Podcasts link, itunes:ID, local file, or subscription.")
  var feed: String

  @Option(help: "Show at most N episodes.")
  var limit: Int?

  @Flag(help: "Print JSON.")
  var json = false

  func validate() throws {
    if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
  }

  func run() async throws {
    let context = CommandContext(libraryOptions: libraryOptions)
    let resolved = try await context.resolveOrExit(feed)
    // Without a limit, the parsed array itself: a copy of 20,000 episodes is 5 MB.
    let shown = limit.map { Array(resolved.feed.episodes.prefix($0)) } ?? resolved.feed.episodes
    let keys = EpisodeIdentity.distinctKeys(of: Array(shown))
    // Every state is read before anything is printed: a library that cannot be read is one
    // error line, not a listing that calls downloaded episodes new.
    let reader = try CommandFailure.reported {
      try DownloadProgressReader(
        store: try libraryOptions.openStoreForReading(), feedURL: resolved.location)
    }
    let statuses = shown.enumerated().map { offset, episode in
      reader.status(of: episode.enclosure.url, keys: keys[offset])
    }
    if json {
      var next = 0
      EpisodeListJSON.print(podcast: resolved.feed.podcast, episodes: shown) { _ in
        defer { next += 1 }
        return statuses[next]
      }
    } else {
      EpisodeTable.print(
        podcast: resolved.feed.podcast, episodes: shown, statuses: statuses,
        total: resolved.feed.episodes.count)
    }
  }
}
