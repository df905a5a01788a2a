import ArgumentParser
import Foundation
import PodcastKit

struct Mark: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mark",
    abstract: "Mark episodes so sync skips them, treats them as had, or takes them as new again.",
    discussion: """
      SELECTION is indexes as `podcast episodes` shows them: 3, 2-5, 1,4,9.
      Examples:
        podcast mark history 3-40 --skip          sync never fetches these
        podcast mark history 2 --downloaded       already had (e.g. from another app)
        podcast mark history 3-40 --new           undo; sync takes them as new
      """
  )

  enum Choice: String, EnumerableFlag {
    case skip
    case downloaded
    case new

    static func help(for value: Choice) -> ArgumentHelp? {
      switch value {
      case .skip: "Never fetch these episodes in sync."
      case .downloaded: "Treat them as already downloaded."
      case .new: "Remove the mark; the next sync takes them as new."
      }
    }
  }

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(
    help: "Feed URL, Apple Podcasts link, itunes:ID, local file, or subscription.",
    completion: SubscriptionCompletion.names)
  var feed: String

  @Argument(help: "Episode indexes: 3, 2-5, 1,4,9.")
  var selection: [String]

  @Flag(exclusivity: .exclusive) var choice: Choice

  func validate() throws {
    if try EpisodeSelection(usage: selection).indexes.isEmpty {
      throw ValidationError("give the episodes to mark, e.g. 3-40")
    }
  }

  func run() async throws {
    let context = CommandContext(libraryOptions: libraryOptions)
    let resolved = try await context.resolve(feed)
    let episodes = resolved.feed.episodes
    let chosen = try EpisodeSelection.checked(selection, episodeCount: episodes.count)
    let library = try context.openLibrary()
    let subscription = try subscription(resolved, store: library.store)
    let state: EpisodeMark.State? =
      switch choice {
      case .skip: .skip
      case .downloaded: .downloaded
      case .new: nil
      }
    try library.store.mark(
      chosen.indexes.map { episodes[$0 - 1] }, as: state, feedURL: resolved.location,
      subscriptionId: subscription?.id)
    let count = chosen.indexes.count
    let word =
      switch choice {
      case .skip: "to skip"
      case .downloaded: "as downloaded"
      case .new: "as new"
      }
    Console.print("Marked \(count) episode\(count == 1 ? "" : "s") \(word).")
  }

  /// The subscription FEED names or whose feed it is, if any.
  private func subscription(_ resolved: ResolvedFeed, store: LibraryStore) throws
    -> Subscription?
  {
    if case .subscription = try? FeedSource.classify(feed) {
      return try store.subscription(matching: feed)
    }
    return try store.subscriptions().first {
      $0.feedURL == resolved.location || $0.feedURL == feed
    }
  }
}
