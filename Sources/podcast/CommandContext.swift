import Foundation
import PodcastKit

/// What every command builds from the environment before it starts: how to reach the network
/// (the user's timeout, the iTunes directory's address) and where the library is.
struct CommandContext {
  let network: Network
  let libraryOptions: LibraryOptions

  init(libraryOptions: LibraryOptions) {
    self.libraryOptions = libraryOptions
    self.network = Self.network()
  }

  var paths: LibraryPaths { libraryOptions.paths }

  /// Loads FEED (every page of a paged feed unless `allPages` is false); what it throws ends
  /// the command through `CommandFailure` (one line, exit 1).
  func resolve(_ feed: String, allPages: Bool = true) async throws -> ResolvedFeed {
    try await ResolveFeed(paths: paths, network: network).run(feed, allPages: allPages)
  }

  /// The library, created when missing, for a command that changes it.
  func openLibrary() throws -> Library {
    try Library(opening: paths)
  }
}

extension CommandContext {
  /// `PODCAST_TIMEOUT` (else config.toml's `timeout`) as the stall timeout,
  /// `PODCAST_ITUNES_URL`, `PODCAST_PODCASTINDEX_URL`, `PODCAST_FYYD_URL` and
  /// `PODCAST_GPODDER_URL` in place of the directories' servers (tests point them at loopback
  /// servers), and the user's Podcast Index key (`podcastIndexCredentials()`).
  static func network() -> Network {
    let environment = ProcessInfo.processInfo.environment
    var stallTimeout: Int?
    let fromFile = Configuration.file?.libraryValue("timeout")
    if let text = environment["PODCAST_TIMEOUT"].flatMap({ $0.isEmpty ? nil : $0 }) ?? fromFile {
      stallTimeout = Network.stallTimeout(parsing: text)
      if stallTimeout == nil {
        // A typo in a crontab should show, not silently mean the default.
        Console.error(
          "PODCAST_TIMEOUT=\(text) is not a positive number of seconds; using \(Network.defaultStallTimeout)"
        )
      }
    }
    func address(_ name: String) -> String? {
      environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
    return Network(
      stallTimeout: stallTimeout, iTunesBaseURL: address("PODCAST_ITUNES_URL"),
      podcastIndexBaseURL: address("PODCAST_PODCASTINDEX_URL"),
      fyydBaseURL: address("PODCAST_FYYD_URL"), gpodderBaseURL: address("PODCAST_GPODDER_URL"),
      podcastIndexCredentials: podcastIndexCredentials())
  }

  /// `PODCAST_INDEX_KEY` and `PODCAST_INDEX_SECRET`, each else config.toml's
  /// `podcastindex-key` / `podcastindex-secret`; nil unless both are there.
  static func podcastIndexCredentials() -> PodcastIndexCredentials? {
    let environment = ProcessInfo.processInfo.environment
    func value(_ variable: String, _ key: String) -> String? {
      environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        ?? Configuration.file?.libraryValue(key)
    }
    return PodcastIndexCredentials(
      key: value("PODCAST_INDEX_KEY", "podcastindex-key"),
      secret: value("PODCAST_INDEX_SECRET", "podcastindex-secret"))
  }
}
