import Basics

/// A parsed feed: the show and its episodes, newest first (index 1 is `episodes[0]`).
public struct Feed: Sendable, Equatable {
  public var podcast: Podcast
  public var episodes: [Episode]

  public init(podcast: Podcast, episodes: [Episode]) {
    self.podcast = podcast
    self.episodes = episodes
  }
}
