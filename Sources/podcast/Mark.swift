import ArgumentParser
import PodcastKit

struct Mark: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mark",
    abstract:
      "Mark episodes so sync skips them, treats them as had or as new again; or played or unplayed.",
    discussion: """
      SELECTION is indexes as `podcast episodes` shows them: 3, 2-5, 1,4,9.
      Examples:
        podcast mark history 3-40 --skip          sync never fetches these
        podcast mark history 2 --downloaded       already had (e.g. from another app)
        podcast mark history 3-40 --new           undo; sync takes them as new
        podcast mark history 1 --played           heard it (sent to the sync account)
      """
  )

  enum Choice: String, EnumerableFlag {
    case skip
    case downloaded
    case new
    case played
    case unplayed

    static func help(for value: Choice) -> ArgumentHelp? {
      switch value {
      case .skip: "Never fetch these episodes in sync."
      case .downloaded: "Treat them as already downloaded."
      case .new: "Remove the mark; the next sync takes them as new."
      case .played: "Record them as heard to the end (and tell the sync account's server)."
      case .unplayed: "Record them as not heard (and tell the sync account's server)."
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
    let outcome: MarkEpisodes.Outcome
    do {
      outcome = try await MarkEpisodes(
        paths: libraryOptions.paths,
        network: CommandContext(libraryOptions: libraryOptions).network
      ).run(feed: feed, selection: try EpisodeSelection(usage: selection), as: choice.asked)
    } catch let error as SelectionError {
      // Episode 9999 of a 143-episode feed is a usage error, with the command's usage.
      throw ValidationError(CommandFailure.message(for: error))
    }
    let count = outcome.marked
    let word =
      switch choice {
      case .skip: "to skip"
      case .downloaded: "as downloaded"
      case .new: "as new"
      case .played: "as played"
      case .unplayed: "as unplayed"
      }
    Console.print("Marked \(count) episode\(count == 1 ? "" : "s") \(word).")
    for failure in outcome.pageFailures { Console.error(String(describing: failure)) }
  }
}

extension Mark.Choice {
  /// The flag as the use case takes it: a case for a case, so a new one must be mapped here.
  var asked: MarkEpisodes.Choice {
    switch self {
    case .skip: .skip
    case .downloaded: .downloaded
    case .new: .new
    case .played: .played
    case .unplayed: .unplayed
    }
  }
}
