import Basics
import Feeds
import Foundation

/// A user's word on one episode, so sync leaves it alone: `skip` (never fetch it) or
/// `downloaded` (already had, e.g. from another tool). Keyed by the episode's identity key
/// (`EpisodeIdentity.key`) alone, not by feed, so a mark follows a feed that moves.
public struct EpisodeMark: Codable, Sendable, Equatable {
  public enum State: String, Codable, Sendable {
    case skip
    case downloaded
  }

  public var key: String
  public var state: State
  /// Where and what it was when marked, for people reading the database.
  public var feedURL: String?
  public var title: String?
  public var markedAt: Date

  public init(
    key: String, state: State, feedURL: String? = nil, title: String? = nil,
    markedAt: Date = Date()
  ) {
    self.key = key
    self.state = state
    self.feedURL = feedURL
    self.title = title
    self.markedAt = markedAt
  }

  /// The key an episode of a feed is marked under.
  public static func key(for episode: Episode) -> String {
    EpisodeIdentity.key(
      guid: episode.guid, enclosureURL: episode.enclosure.url, title: episode.title,
      published: episode.published)
  }
}
