import Model
import Search
import Source
import Store

/// What a FEED argument names, loaded and parsed: a feed URL, an Apple Podcasts link or
/// `itunes:` id (through the iTunes lookup), `podcastindex:ID` or `guid:GUID` (through
/// Podcast Index, with the user's key), `fyyd:ID`, a local file, or a subscription of the
/// library (looked up without creating a library when there is none).
public struct ResolveFeed: Sendable {
  package let resolver: FeedResolver

  public init(paths: LibraryPaths, network: Network) {
    let iTunes = network.iTunes
    let podcastIndex = network.podcastIndex
    let fyyd = network.fyyd
    resolver = FeedResolver(
      loader: FeedLoader(http: network.http),
      applePodcastsFeedURL: { id in
        guard let number = Int(id) else { throw FeedSourceError.badITunesID("itunes:\(id)") }
        do {
          return try await iTunes.feedURL(forPodcastID: number)
        } catch let error as SearchError {
          // Apple lists some shows without their feed, and drops others; Podcast Index often
          // knows the feed by the iTunes id.
          switch error {
          case .podcastHasNoFeed, .podcastNotFound:
            if let feedURL = try? await podcastIndex?.podcast(iTunesID: number)?.feedURL {
              return feedURL
            }
          default:
            break
          }
          throw error
        }
      },
      directoryFeedURL: { reference in
        switch reference {
        case .podcastIndexFeed, .podcastGUID:
          guard let podcastIndex else { throw SearchError.podcastIndexKeyMissing }
          return try await podcastIndex.feedURL(for: reference)
        case .fyydPodcast(let id):
          return try await fyyd.feedURL(forPodcastID: id)
        }
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
