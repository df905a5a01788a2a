import Basics
import Foundation

/// The raw strings of one `<item>` or `<entry>` while it is being read. Turned into an
/// `Episode` when the element closes, or dropped when it has nothing to download.
package struct ItemDraft {
  package struct MediaFile {
    package var url: String
    package var length: String?
    package var type: String?
    /// Media RSS `medium` (`audio`, `image`, ...).
    package var medium: String? = nil
    package var isMediaContent = false
    /// Written relative in a feed read from a local file: listed (as a `file:` URL) so the
    /// episode does not silently vanish, but a download says why it cannot fetch it.
    package var isRelativeToFile = false

    /// http(s), or relative to a local feed file; never another scheme the feed names.
    package var isFetchable: Bool { FeedURL.hasWebScheme(url) || isRelativeToFile }
  }

  package var guid: String?
  package var title: String?
  package var pubDate: String?
  /// Dates used when there is no `pubDate`, best first (see `DateRank`).
  package var fallbackDates: [(rank: DateRank, text: String)] = []
  /// `dc:title`, used when there is no `title`.
  package var fallbackTitle: String?
  package var duration: String?
  package var link: String?
  /// An RSS guid that is a permalink (the default) and a web address: the episode's page when
  /// there is no link.
  package var guidIsPermaLink = false
  package var permaLink: String?
  package var contentEncoded: ShowNotes?
  package var descriptionText: ShowNotes?
  package var summary: String?
  package var season: String?
  package var episodeNumber: String?
  package var episodeType: String?
  package var explicit: String?
  package var imageURL: String?
  package var transcripts: [Transcript] = []
  package var chapters: Chapters?
  /// `<enclosure>` elements and Atom `link rel="enclosure"`, in feed order.
  package var enclosures: [MediaFile] = []
  /// `media:content`, only used when there is no usable enclosure.
  package var mediaContents: [MediaFile] = []

  /// nil when the item has no http(s) media file: such items are not episodes.
  package func episode() -> Episode? {
    guard let file = EnclosureChoice.best(enclosures: enclosures, mediaContents: mediaContents)
    else { return nil }
    let enclosure = Enclosure(
      url: file.url, length: file.length.flatMap(EnclosureLength.bytes),
      type: Self.nonEmpty(file.type))
    var episode = Episode(
      guid: guid, title: title ?? fallbackTitle, published: publishedDate(),
      duration: duration.flatMap(EpisodeDuration.seconds),
      enclosure: enclosure, link: link ?? permaLink,
      season: season.flatMap(Self.positiveInt), number: episodeNumber.flatMap(Self.positiveInt),
      episodeType: episodeType?.lowercased(), explicit: explicit.flatMap(Self.explicitFlag),
      imageURL: imageURL, transcripts: transcripts, chapters: chapters)
    episode.showNotes = contentEncoded ?? descriptionText ?? summary.map(ShowNotes.init)
    return episode
  }

  private func publishedDate() -> Date? {
    if let pubDate, let date = FeedDate.parse(pubDate) { return date }
    for fallback in fallbackDates.sorted(by: { $0.rank < $1.rank }) {
      if let date = FeedDate.parse(fallback.text) { return date }
    }
    return nil
  }

  /// Where a date that is not `pubDate` came from: Atom's `published` (and 0.3's `issued`)
  /// is when the episode came out, `updated`/`modified` only when it last changed.
  package enum DateRank: Int, Comparable {
    case published, dublinCore, updated

    package static func < (a: DateRank, b: DateRank) -> Bool { a.rawValue < b.rawValue }
  }

  /// `itunes:explicit`: Apple documents true/false, older feeds say yes/no/clean.
  package static func explicitFlag(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "yes", "true", "explicit": return true
    case "no", "false", "clean": return false
    default: return nil
    }
  }

  // Static: passing an instance method to `flatMap` made a closure holding a copy of the
  // whole draft, twice per item.
  private static func positiveInt(_ text: String) -> Int? {
    let trimmed = String.isSurelyTrimmed(text) ? text : text.trimmingCharacters(in: .whitespaces)
    guard let value = Int(trimmed), value >= 0 else { return nil }
    return value
  }

  private static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
