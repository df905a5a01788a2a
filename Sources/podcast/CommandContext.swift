import ArgumentParser
import Foundation
import PodcastKit

/// What every command builds from the environment before it starts: the HTTP client with the
/// user's timeouts, and the resolver for FEED arguments.
struct CommandContext {
  let http: HTTPClient
  let resolver: FeedResolver
  let libraryOptions: LibraryOptions

  init(libraryOptions: LibraryOptions) {
    self.libraryOptions = libraryOptions
    let http = Self.httpClient()
    self.http = http
    self.resolver = FeedResolver(
      loader: FeedLoader(http: http),
      applePodcastsFeedURL: { id in
        guard let number = Int(id) else { throw FeedSourceError.badITunesID("itunes:\(id)") }
        return try await ITunesClient.fromEnvironment(http: http).feedURL(forPodcastID: number)
      },
      subscriptionFeedURL: { name in
        guard let store = try libraryOptions.openExistingStore() else {
          throw FeedSourceError.notFound(name)
        }
        return try store.subscription(matching: name).feedURL
      },
      subscriptionReadsPages: { name in
        guard let store = try libraryOptions.openExistingStore(),
          let id = try store.subscription(matching: name).id
        else { return true }
        return try store.settings(subscriptionId: id).pages != false
      })
  }
}

extension CommandContext {
  /// The HTTP client with the user's timeouts (`PODCAST_TIMEOUT`), for every command.
  static func httpClient() -> HTTPClient {
    let environment = ProcessInfo.processInfo.environment
    var options = TransferOptions()
    let fromFile = Configuration.file?.libraryValue("timeout")
    if let text = environment["PODCAST_TIMEOUT"].flatMap({ $0.isEmpty ? nil : $0 }) ?? fromFile {
      if let stall = Int(text), stall > 0 {
        options.stallTimeout = stall
        options.connectTimeout = min(options.connectTimeout, stall)
      } else {
        // A typo in a crontab should show, not silently mean the default.
        Console.error(
          "PODCAST_TIMEOUT=\(text) is not a positive number of seconds; using \(options.stallTimeout)"
        )
      }
    }
    return HTTPClient(options: options)
  }
}

extension CommandContext {
  /// The client for downloads: the same timeouts, plus one bandwidth budget shared by every
  /// download made through it.
  func http(limitedTo bytesPerSecond: Int64?) -> HTTPClient {
    guard let bytesPerSecond else { return http }
    var options = http.options
    options.rateLimit = RateLimit(bytesPerSecond: bytesPerSecond)
    return HTTPClient(options: options, maxBodyBytes: http.maxBodyBytes)
  }
}

/// The library a command works on: where things go and what is remembered.
struct OpenLibrary {
  let paths: LibraryPaths
  let store: LibraryStore
}

extension CommandContext {
  /// Loads FEED (every page of a paged feed unless `allPages` is false); what it throws ends
  /// the command through `CommandFailure` (one line, exit 1).
  func resolve(_ feed: String, allPages: Bool = true) async throws -> ResolvedFeed {
    try await resolver.resolve(feed, allPages: allPages)
  }

  func openLibrary() throws -> OpenLibrary {
    let paths = libraryOptions.paths
    try paths.prepare()
    return OpenLibrary(paths: paths, store: try LibraryStore(paths: paths))
  }
}
