import Foundation
import PodcastKit

/// What every command builds from the environment before it starts: the HTTP client with the
/// user's timeouts, and the resolver for FEED arguments.
struct CommandContext {
  let http: HTTPClient
  let resolver: FeedResolver

  init(libraryOptions: LibraryOptions) {
    let environment = ProcessInfo.processInfo.environment
    var options = TransferOptions()
    if let stall = environment["PODCAST_TIMEOUT"].flatMap(Int.init), stall > 0 {
      options.stallTimeout = stall
      options.connectTimeout = min(options.connectTimeout, stall)
    }
    let http = HTTPClient(options: options)
    self.http = http
    self.resolver = FeedResolver(
      loader: FeedLoader(http: http),
      applePodcastsFeedURL: { id in
        throw TransferError.network(url: "itunes:\(id)", reason: "Apple Podcasts lookups are not available yet")
      },
      subscriptionFeedURL: { name in
        throw FeedSourceError.notFound(name)
      })
  }
}
