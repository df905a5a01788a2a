import Model
import Source
import Store

/// What a FEED argument names, loaded and parsed: a feed URL, an Apple Podcasts link or
/// `itunes:` id (through the iTunes lookup), a local file, or a subscription of the library
/// (looked up without creating a library when there is none).
public struct ResolveFeed: Sendable {
  package let resolver: FeedResolver

  public init(paths: LibraryPaths, network: Network) {
    let iTunes = network.iTunes
    resolver = FeedResolver(
      loader: FeedLoader(http: network.http),
      applePodcastsFeedURL: { id in
        guard let number = Int(id) else { throw FeedSourceError.badITunesID("itunes:\(id)") }
        return try await iTunes.feedURL(forPodcastID: number)
      },
      subscriptionFeedURL: { name in
        guard let store = try Library.existingStore(at: paths) else {
          throw FeedSourceError.notFound(name)
        }
        return try Subscriptions(store: store).matching(name).feedURL
      },
      subscriptionReadsPages: { name in
        guard let store = try Library.existingStore(at: paths) else { return true }
        let id = try Subscriptions(store: store).matching(name).id
        return try SavedSettings(store: store).of(subscriptionId: id).pages != false
      })
  }

  /// FEED loaded: every page of a paged feed unless `allPages` is false.
  public func run(_ feed: String, allPages: Bool = true) async throws -> ResolvedFeed {
    try await resolver.resolve(feed, allPages: allPages)
  }
}
