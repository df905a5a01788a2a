import Basics

/// A parsed feed: the show and its episodes, newest first (index 1 is `episodes[0]`).
public struct Feed: Sendable, Equatable {
  public var podcast: Podcast
  public var episodes: [Episode]
  /// This document's paging links (RFC 5005): a paged feed's other pages.
  public var pageLinks: FeedPageLinks

  public init(podcast: Podcast, episodes: [Episode], pageLinks: FeedPageLinks = FeedPageLinks()) {
    self.podcast = podcast
    self.episodes = episodes
    self.pageLinks = pageLinks
  }
}
