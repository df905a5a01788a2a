import ArgumentParser
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

  func run() async throws {
    throw ExitCode.failure
  }
}
