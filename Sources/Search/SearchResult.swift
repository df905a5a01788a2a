import Basics
import Foundation

/// One podcast as the iTunes Search API describes it. Fields Apple left out stay `nil`.
public struct SearchResult: Sendable, Equatable {
  /// The iTunes collection id: what `itunes:ID` and Apple Podcasts links name.
  public var id: Int
  public var title: String?
  public var author: String?
  /// The RSS feed; `nil` when Apple lists the show without a public feed.
  public var feedURL: String?
  public var episodeCount: Int?
  public var genre: String?
  public var artworkURL: String?
  /// The show's page in the Apple Podcasts store.
  public var storeURL: String?
  /// When the newest episode came out, as Apple reports it.
  public var releaseDate: Date?

  public init(
    id: Int, title: String? = nil, author: String? = nil, feedURL: String? = nil,
    episodeCount: Int? = nil, genre: String? = nil, artworkURL: String? = nil,
    storeURL: String? = nil, releaseDate: Date? = nil
  ) {
    self.id = id
    self.title = title
    self.author = author
    self.feedURL = feedURL
    self.episodeCount = episodeCount
    self.genre = genre
    self.artworkURL = artworkURL
    self.storeURL = storeURL
    self.releaseDate = releaseDate
  }

  /// Without a feed URL there is nothing `podcast` can fetch.
  public var isDownloadable: Bool { feedURL != nil }
}
