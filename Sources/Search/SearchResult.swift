import Basics
import Foundation

/// One podcast as one or more directories describe it. Each directory client fills in what its
/// answers carry; `ResultMerge` joins the results several directories have for one podcast.
/// Fields no directory gave stay `nil`.
public struct SearchResult: Sendable, Equatable {
  /// The iTunes collection id: what `itunes:ID` and Apple Podcasts links name. Podcast Index
  /// knows it for many shows, so a show Apple did not list may still have one.
  public var iTunesID: Int?
  public var title: String?
  public var author: String?
  /// The RSS feed; `nil` when the show is listed without a public feed.
  public var feedURL: String?
  public var episodeCount: Int?
  public var genre: String?
  public var artworkURL: String?
  /// The show's page in the Apple Podcasts store.
  public var storeURL: String?
  /// When the newest episode came out, as Apple reports it.
  public var releaseDate: Date?
  /// When the newest episode came out, the newest any directory reports.
  public var lastPublished: Date?
  /// The directories that listed it, best rank first.
  public var directories: [Directory]
  /// Podcast Index's feed id: what `podcastindex:ID` names.
  public var podcastIndexID: Int?
  /// fyyd's podcast id: what `fyyd:ID` names.
  public var fyydID: Int?
  /// The show's `podcast:guid` (Podcasting 2.0), as Podcast Index knows it.
  public var podcastGUID: String?

  public init(
    iTunesID: Int? = nil, title: String? = nil, author: String? = nil, feedURL: String? = nil,
    episodeCount: Int? = nil, genre: String? = nil, artworkURL: String? = nil,
    storeURL: String? = nil, releaseDate: Date? = nil, lastPublished: Date? = nil,
    directories: [Directory] = [], podcastIndexID: Int? = nil, fyydID: Int? = nil,
    podcastGUID: String? = nil
  ) {
    self.iTunesID = iTunesID
    self.title = title
    self.author = author
    self.feedURL = feedURL
    self.episodeCount = episodeCount
    self.genre = genre
    self.artworkURL = artworkURL
    self.storeURL = storeURL
    self.releaseDate = releaseDate
    self.lastPublished = lastPublished
    self.directories = directories
    self.podcastIndexID = podcastIndexID
    self.fyydID = fyydID
    self.podcastGUID = podcastGUID
  }

  /// Without a feed URL there is nothing `podcast` can fetch.
  public var isDownloadable: Bool { feedURL != nil }
}
