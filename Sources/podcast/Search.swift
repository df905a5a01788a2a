import ArgumentParser
import PodcastKit

struct Search: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "search",
    abstract:
      "Search podcast directories at once (Apple, Podcast Index, fyyd, gpodder.net) and merge what they find.",
    discussion: """
      By default Apple Podcasts is asked, plus Podcast Index when your key is set: get a key \
      and secret free at \(PodcastIndexCredentials.signUpURL), then set PODCAST_INDEX_KEY and \
      PODCAST_INDEX_SECRET (or podcastindex-key and podcastindex-secret in config.toml). \
      A show listed by several directories is one row; each row's feed URL works wherever a \
      command takes FEED.

      Examples:
        podcast search hardcore history
        podcast search --directory all lage der nation
        podcast search --directory fyyd,gpodder --limit 5 freak show
        podcast search cars --json
      """
  )

  @Argument(help: "Words to search for in podcast titles and authors.")
  var term: [String]

  @Option(help: "Show at most N results (1-\(SearchPodcasts.limits.upperBound)).")
  var limit = SearchPodcasts.defaultLimit

  @Option(help: "Two-letter country code of the Apple Podcasts store to search.")
  var country = SearchPodcasts.defaultCountry

  @Option(
    name: .customLong("directory"),
    help: ArgumentHelp(
      "Directories to ask, comma-separated, or all (default: config.toml's directories, else apple, plus podcastindex when a key is set).",
      valueName: Directory.choices),
    completion: .list(Directory.allCases.map(\.rawValue) + ["all"]))
  var directory: String?

  @Option(help: "Seconds each directory may take to answer.")
  var timeout = SearchPodcasts.defaultTimeLimit

  @Flag(help: "Print JSON.")
  var json = false

  // Search reads no library, but accepts the options every command takes, so a shell alias
  // such as `alias pod='podcast --library ~/Pods'` works for it too.
  @OptionGroup var libraryOptions: LibraryOptions

  private var joinedTerm: String { term.joined(separator: " ") }

  func validate() throws {
    do {
      try SearchPodcasts.check(term: joinedTerm, limit: limit, country: country)
      try SearchPodcasts.check(
        directories: try directories(),
        hasPodcastIndexKey: CommandContext.podcastIndexCredentials() != nil)
    } catch {
      throw ValidationError(CommandFailure.message(for: error))
    }
    guard timeout > 0, timeout <= 3600 else {
      throw ValidationError("--timeout \(timeout) is out of range: give 0.1 to 3600 seconds")
    }
  }

  func run() async throws {
    let network = CommandContext.network()
    let outcome = await SearchPodcasts(network: network).run(
      term: joinedTerm, limit: limit, country: country, directories: try directories(),
      timeLimit: timeout)
    // With every directory failed there is no answer to print, not even an empty one.
    let answered = outcome.answered
    if json && !answered.isEmpty {
      Console.print(SearchTable.json(outcome.results).rendered())
    } else if !outcome.results.isEmpty {
      Console.print(SearchTable.text(outcome.results, width: Console.width))
      if Console.isTerminal {
        let next =
          "Next: podcast episodes FEED (the URL under a show), then podcast download FEED 1"
        Console.print(
          "\n"
            + (TerminalText.width(next) < Console.width
              ? next
              : "Next: podcast episodes URL\nthen: podcast download URL 1")
        )
      }
    }
    for failure in outcome.failures {
      Console.error(failure)
    }
    if outcome.results.isEmpty && !json && !answered.isEmpty {
      Console.error("no podcasts found for \"\(joinedTerm)\" in \(names(answered))")
    }
    if !outcome.failures.isEmpty { throw ExitCode.failure }
  }

  /// `--directory`, else config.toml's `directories`; empty: the default.
  private func directories() throws -> [Directory] {
    if let directory { return try Directory.list(parsing: directory) }
    if let configured = Configuration.file?.strings(of: "directories", for: "search") {
      return try Directory.list(parsing: configured.joined(separator: ","))
    }
    return []
  }

  private func names(_ directories: [Directory]) -> String {
    directories.map { directory in
      directory == .apple ? "Apple Podcasts (\(country.uppercased()) store)" : directory.name
    }.joined(separator: ", ")
  }
}
