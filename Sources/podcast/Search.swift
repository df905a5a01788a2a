import ArgumentParser
import PodcastKit

struct Search: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "search",
    abstract:
      "Search Apple Podcasts; prints each show's feed URL and iTunes id for the next command.",
    discussion: """
      Examples:
        podcast search hardcore history
        podcast search --country DE --limit 5 lage der nation
        podcast search cars --json
      """
  )

  @Argument(help: "Words to search for in podcast titles and authors.")
  var term: [String]

  @Option(help: "Show at most N results (1-\(SearchPodcasts.limits.upperBound)).")
  var limit = SearchPodcasts.defaultLimit

  @Option(help: "Two-letter country code of the Apple Podcasts store to search.")
  var country = SearchPodcasts.defaultCountry

  @Flag(help: "Print JSON.")
  var json = false

  // Search reads no library, but accepts the options every command takes, so a shell alias
  // such as `alias pod='podcast --library ~/Pods'` works for it too.
  @OptionGroup var libraryOptions: LibraryOptions

  private var joinedTerm: String { term.joined(separator: " ") }

  func validate() throws {
    do {
      try SearchPodcasts.check(term: joinedTerm, limit: limit, country: country)
    } catch {
      throw ValidationError(CommandFailure.message(for: error))
    }
  }

  func run() async throws {
    let results = try await SearchPodcasts(network: CommandContext.network())
      .run(term: joinedTerm, limit: limit, country: country)
    if json {
      Console.print(SearchTable.json(results).rendered())
    } else if results.isEmpty {
      Console.error("no podcasts found for \"\(joinedTerm)\" in the \(country.uppercased()) store")
    } else {
      Console.print(SearchTable.text(results, width: Console.width))
      if Console.isTerminal {
        let next =
          "Next: podcast episodes itunes:ID (or the feed URL), then podcast download FEED 1"
        Console.print(
          "\n"
            + (TerminalText.width(next) < Console.width
              ? next : "Next: podcast episodes itunes:ID\nthen: podcast download FEED 1"))
      }
    }
  }
}
