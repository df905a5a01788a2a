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
    let reader = progressReader()
    if json {
      EpisodeListJSON.print(podcast: resolved.feed.podcast, episodes: shown) {
        reader.status(of: $0.enclosure.url)
      }
    } else {
      let statuses = shown.map { reader.status(of: $0.enclosure.url) }
      EpisodeTable.print(
        podcast: resolved.feed.podcast, episodes: shown, statuses: statuses,
        total: resolved.feed.episodes.count)
    }
  }

  /// Reads an existing library only: listing a feed never creates one.
  private func progressReader() -> DownloadProgressReader {
    let paths = libraryOptions.paths
    let store =
      FileManager.default.fileExists(atPath: paths.database) ? try? LibraryStore(paths: paths) : nil
    return DownloadProgressReader(ledger: store, partialsDirectory: paths.partials)
  }
}
