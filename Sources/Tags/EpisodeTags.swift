import Basics
import Feeds
import Foundation
import FullText

/// What the tagger writes into an episode file, taken from the feed. A nil field leaves
/// whatever the publisher's own tag has there.
public struct EpisodeTags: Sendable, Hashable {
  public var title: String?
  /// The podcast's title, written as both album and album artist so players group a show's
  /// episodes together.
  public var podcast: String?
  /// The podcast's author, written as artist.
  public var author: String?
  public var published: Date?
  /// The episode number, written as the track number.
  public var number: Int?
  /// The season, written as the disc number (ID3 TPOS, MP4 `disk`, Xiph DISCNUMBER).
  public var season: Int?
  public var genre: String
  /// The show notes as plain text, written as the comment.
  public var comment: String?
  /// Written as ID3 CHAP/CTOC frames (MP3) and CHAPTERnnn comments (Ogg); TagLib writes no
  /// MP4 chapters.
  public var chapters: [ChapterMark]

  public init(
    title: String? = nil, podcast: String? = nil, author: String? = nil, published: Date? = nil,
    number: Int? = nil, season: Int? = nil, genre: String = "Podcast", comment: String? = nil,
    chapters: [ChapterMark] = []
  ) {
    self.title = title
    self.podcast = podcast
    self.author = author
    self.published = published
    self.number = number
    self.season = season
    self.genre = genre
    self.comment = comment
    self.chapters = chapters
  }

  /// The tags for `episode` of `podcast`, its HTML show notes turned into plain text.
  public init(podcast: Podcast, episode: Episode, chapters: [ChapterMark] = []) {
    self.init(
      title: Self.text(episode.title), podcast: Self.text(podcast.title),
      author: Self.text(podcast.author), published: episode.published, number: episode.number,
      season: episode.season, comment: episode.description.flatMap(Self.comment(html:)),
      chapters: chapters)
  }

  /// Show notes as a player's comment field can show them: feeds carry HTML, tags carry text
  /// (read as the full-text index reads notes); nil when nothing readable is left.
  package static func comment(html: String) -> String? {
    let text = MarkupText.text(html)
    return text.isEmpty ? nil : text
  }

  /// Titles in feeds carry stray line breaks and runs of spaces.
  private static func text(_ value: String?) -> String? {
    guard let value else { return nil }
    let cleaned = value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return cleaned.isEmpty ? nil : cleaned
  }

  /// The publication time as ID3v2.4 writes it (UTC, to the second); nil for dates no tag
  /// format can hold.
  package var timestamp: String? {
    guard let published else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: published)
    guard let year = parts.year, (1...9999).contains(year), let month = parts.month,
      let day = parts.day, let hour = parts.hour, let minute = parts.minute,
      let second = parts.second
    else { return nil }
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
  }
}
