import Feeds
import FullText
import Model

/// A feed's episodes as the full-text index takes them from a refresh (`FindIndex.record`).
package struct FeedTexts: Sendable {
  /// In the feed's order.
  package var texts: [FeedText]
  /// Whether `texts` are the feed as `episodes` lists it from the copy the library keeps, in
  /// its order (a feed read whole, or every page of a paged one), so each one's place is its
  /// index; not for a paged feed read as far as a later sync reads it.
  package var isListing: Bool

  package init(texts: [FeedText], isListing: Bool) {
    self.texts = texts
    self.isListing = isListing
  }

  package init(_ episodes: [Episode], isListing: Bool) {
    self.init(texts: episodes.map(FeedText.init), isListing: isListing)
  }
}

/// What a feed says of one of its episodes that the full-text index holds (`FindIndex`): the
/// title and the show notes, under the episode's identity key. The notes stay as the parser
/// left them (in memory or in its spool file) until the index needs them: most of a sync's
/// feeds list nothing new, and an episode whose title and notes did not change is not read.
package struct FeedText: Sendable {
  package var key: String
  package var title: String?
  package var notes: ShowNotes?

  package init(key: String, title: String?, notes: ShowNotes?) {
    self.key = key
    self.title = title
    self.notes = notes
  }

  package init(_ episode: Episode) {
    self.init(
      key: EpisodeIdentity.key(
        guid: episode.guid, enclosureURL: episode.enclosure.url, title: episode.title,
        published: episode.published),
      title: episode.title, notes: episode.showNotes)
  }

  /// A 64-bit FNV-1a hash of the title and the notes' bytes: whether what the index holds of
  /// the episode is still what the feed says.
  package var digest: Int64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func add(_ byte: UInt8) {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    for byte in (title ?? "").utf8 { add(byte) }
    add(0xFF)
    notes?.withUTF8 { bytes in for byte in bytes { add(byte) } }
    return Int64(bitPattern: hash)
  }

  /// The notes as the text the index holds (at most 256 kB of it).
  package var notesText: String {
    var text = ""
    // What a terminal would act on is left for the front end to make safe; the marks of a
    // match (control characters) cannot be among the text.
    notes?.withUTF8 { bytes in text = MarkupText.text(utf8: bytes, limit: 256 << 10) }
    return text
  }
}
