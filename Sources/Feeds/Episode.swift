import Basics
import Foundation

/// One item of a feed that has something to download.
public struct Episode: Sendable, Equatable {
  public var guid: String?
  public var title: String?
  public var published: Date?
  /// Seconds.
  public var duration: Int?
  public var enclosure: Enclosure
  public var link: String?
  /// Plain or HTML show notes (content:encoded preferred over description, itunes:summary last).
  public var showNotes: ShowNotes?
  public var season: Int?
  public var number: Int?
  /// `full`, `trailer` or `bonus` as the feed says.
  public var episodeType: String?
  public var explicit: Bool?
  public var imageURL: String?
  /// `podcast:transcript` files, in feed order.
  public var transcripts: [Transcript]
  /// `podcast:chapters`.
  public var chapters: Chapters?

  public init(
    guid: String? = nil, title: String? = nil, published: Date? = nil, duration: Int? = nil,
    enclosure: Enclosure, link: String? = nil, description: String? = nil, season: Int? = nil,
    number: Int? = nil, episodeType: String? = nil, explicit: Bool? = nil,
    imageURL: String? = nil, transcripts: [Transcript] = [], chapters: Chapters? = nil
  ) {
    self.guid = guid
    self.title = title
    self.published = published
    self.duration = duration
    self.enclosure = enclosure
    self.link = link
    self.showNotes = description.map(ShowNotes.init)
    self.season = season
    self.number = number
    self.episodeType = episodeType
    self.explicit = explicit
    self.imageURL = imageURL
    self.transcripts = transcripts
    self.chapters = chapters
  }

  /// The show notes as text.
  public var description: String? {
    get { showNotes?.text }
    set { showNotes = newValue.map(ShowNotes.init) }
  }
}
