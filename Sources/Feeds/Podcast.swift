import Basics

/// The channel-level facts of a feed.
public struct Podcast: Sendable, Equatable, Codable {
  public var title: String?
  public var author: String?
  public var link: String?
  public var description: String?
  public var language: String?
  public var imageURL: String?
  /// The URL the feed was read from (or the file path for a local feed).
  public var feedURL: String?
  /// `itunes:new-feed-url`: the publisher moved the feed here.
  public var newFeedURL: String?
  /// `podcast:guid`, the Podcasting 2.0 identity of the show.
  public var podcastGUID: String?

  public init(
    title: String? = nil, author: String? = nil, link: String? = nil,
    description: String? = nil, language: String? = nil, imageURL: String? = nil,
    feedURL: String? = nil, newFeedURL: String? = nil, podcastGUID: String? = nil
  ) {
    self.title = title
    self.author = author
    self.link = link
    self.description = description
    self.language = language
    self.imageURL = imageURL
    self.feedURL = feedURL
    self.newFeedURL = newFeedURL
    self.podcastGUID = podcastGUID
  }
}
