import Foundation

/// The raw strings of one `<item>` or `<entry>` while it is being read. Turned into an
/// `Episode` when the element closes, or dropped when it has nothing to download.
struct ItemDraft {
  struct MediaFile {
    var url: String
    var length: String?
    var type: String?
    /// Media RSS `medium` (`audio`, `image`, ...).
    var medium: String? = nil
    var isMediaContent = false
    /// Written relative in a feed read from a local file: listed (as a `file:` URL) so the
    /// episode does not silently vanish, but a download says why it cannot fetch it.
    var isRelativeToFile = false

    /// http(s), or relative to a local feed file; never another scheme the feed names.
    var isFetchable: Bool { FeedURL.hasWebScheme(url) || isRelativeToFile }
  }

  var guid: String?
  var title: String?
  var pubDate: String?
  /// Dates used when there is no `pubDate`, best first (see `DateRank`).
  var fallbackDates: [(rank: DateRank, text: String)] = []
  /// `dc:title`, used when there is no `title`.
  var fallbackTitle: String?
  var duration: String?
  var link: String?
  /// An RSS guid that is a permalink (the default) and a web address: the episode's page when
  /// there is no link.
  var guidIsPermaLink = false
  var permaLink: String?
  var contentEncoded: ShowNotes?
  var descriptionText: ShowNotes?
  var summary: String?
  var season: String?
  var episodeNumber: String?
  var episodeType: String?
  var explicit: String?
  var imageURL: String?
  var transcripts: [Transcript] = []
  var chapters: Chapters?
  /// `<enclosure>` elements and Atom `link rel="enclosure"`, in feed order.
  var enclosures: [MediaFile] = []
  /// `media:content`, only used when there is no usable enclosure.
  var mediaContents: [MediaFile] = []

  /// nil when the item has no http(s) media file: such items are not episodes.
  func episode() -> Episode? {
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
  enum DateRank: Int, Comparable {
    case published, dublinCore, updated

    static func < (a: DateRank, b: DateRank) -> Bool { a.rawValue < b.rawValue }
  }

  /// `itunes:explicit`: Apple documents true/false, older feeds say yes/no/clean.
  static func explicitFlag(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "yes", "true", "explicit": return true
    case "no", "false", "clean": return false
    default: return nil
    }
  }

  // Static: passing an instance method to `flatMap` made a closure holding a copy of the
  // whole draft, twice per item.
  private static func positiveInt(_ text: String) -> Int? {
    let trimmed = FeedText.isSurelyTrimmed(text) ? text : text.trimmingCharacters(in: .whitespaces)
    guard let value = Int(trimmed), value >= 0 else { return nil }
    return value
  }

  private static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
