import Basics
import Feeds
import Model
import Source

/// Finds an episode's current enclosure URL in a fresh copy of its feed. Paid feeds sign their
/// links (`…/1.mp3?token-time=1700000000&token-hash=…`) and the signatures expire; the feed
/// serves fresh ones, so a link the server refuses is looked up again by the episode's
/// identity (its GUID first), not by its URL. Each feed is fetched at most once per run (every
/// page of a paged one).
public actor LinkRefresher {
  private let loader: FeedLoader
  private var feeds: [String: [Episode]] = [:]

  public init(loader: FeedLoader) {
    self.loader = loader
  }

  /// The enclosure URL the feed lists now for the job's episode; nil when the feed is a local
  /// file, cannot be fetched, or no longer lists the episode.
  public func currentURL(for job: DownloadJob) async -> String? {
    guard let feedURL = job.feedURL, FeedLocation.isRemote(feedURL), !job.identityKeys.isEmpty
    else {
      return nil
    }
    let episodes: [Episode]
    if let known = feeds[feedURL] {
      episodes = known
    } else {
      guard
        case .fetched(var feed, let url, let validators, _, _)? = try? await loader.fetch(
          url: feedURL)
      else {
        return nil
      }
      if feed.pageLinks.next != nil {
        // A paged feed's episode may be on any page; the pages read are used whatever ended
        // the chain.
        feed = await PagedFeedLoader(loader: loader).pages(
          first: feed, url: url, validators: validators, origin: feedURL
        ).feed
      }
      episodes = feed.episodes
      feeds[feedURL] = episodes
    }
    let wanted = Set(job.identityKeys)
    let keys = EpisodeIdentity.distinctKeys(of: episodes)
    guard let index = keys.firstIndex(where: { !wanted.isDisjoint(with: $0) }) else { return nil }
    return episodes[index].enclosure.url
  }
}
