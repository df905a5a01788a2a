import Basics
import Foundation

/// What the feed said about a downloaded episode and its podcast, kept with the finished
/// download so a podcast folder's own feed (`feed.xml`, see `FolderFeed`) can describe
/// episodes downloaded in earlier runs as their publisher did: the GUID, the show notes, the
/// numbers and flags. Kept only for downloads whose run or subscription writes that feed
/// (`--write-feed`): a library keeps thousands of finished rows, and the show notes are most of
/// this. No URL of the publisher's is kept here, so nothing of a private feed's secrets can
/// reach the folder's feed through it.
///
/// Stored as compact JSON (short keys, absent values left out) in the download's `archive`
/// column.
public struct ArchivedEpisode: Codable, Sendable, Hashable {
  public var guid: String?
  public var title: String?
  public var published: Date?
  /// Plain or HTML show notes, as the feed gave them.
  public var showNotes: String?
  /// Seconds.
  public var duration: Int?
  public var season: Int?
  public var number: Int?
  /// `full`, `trailer` or `bonus`.
  public var episodeType: String?
  public var explicit: Bool?
  /// The enclosure's media type as the feed announced it.
  public var mimeType: String?
  public var podcast: Channel?

  /// The podcast, as the feed said when the episode was downloaded.
  public struct Channel: Codable, Sendable, Hashable {
    public var title: String?
    public var author: String?
    public var description: String?
    public var language: String?

    public init(
      title: String? = nil, author: String? = nil, description: String? = nil,
      language: String? = nil
    ) {
      self.title = title
      self.author = author
      self.description = description
      self.language = language
    }

    enum CodingKeys: String, CodingKey {
      case title = "t"
      case author = "a"
      case description = "d"
      case language = "l"
    }
  }

  public init(
    guid: String? = nil, title: String? = nil, published: Date? = nil, showNotes: String? = nil,
    duration: Int? = nil, season: Int? = nil, number: Int? = nil, episodeType: String? = nil,
    explicit: Bool? = nil, mimeType: String? = nil, podcast: Channel? = nil
  ) {
    self.guid = guid
    self.title = title
    self.published = published
    self.showNotes = showNotes
    self.duration = duration
    self.season = season
    self.number = number
    self.episodeType = episodeType
    self.explicit = explicit
    self.mimeType = mimeType
    self.podcast = podcast
  }

  enum CodingKeys: String, CodingKey {
    case guid = "g"
    case title = "t"
    case published = "d"
    case showNotes = "n"
    case duration = "l"
    case season = "s"
    case number = "e"
    case episodeType = "y"
    case explicit = "x"
    case mimeType = "m"
    case podcast = "p"
  }

  /// The column's text. Keys sorted: the same episode always makes the same text.
  public var encoded: String? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    encoder.dateEncodingStrategy = .secondsSince1970
    guard let data = try? encoder.encode(self) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  /// Nil for a column this build cannot read (a newer build's, or damaged): the feed then says
  /// what the download's own columns know.
  public init?(encoded text: String) {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    guard let value = try? decoder.decode(Self.self, from: Data(text.utf8)) else { return nil }
    self = value
  }
}
