import Basics

/// Element names as the parser knows them. Feeds are written by hand and by odd tools:
/// `<TiTlE>` and `<PUBDATE>` appear, and iTunes reads RSS and iTunes names without regard to
/// case, so a user expects the episodes anyway.
package enum ElementName {
  /// `name` as the parser spells it, when it is a known RSS or iTunes name in another case.
  package static func canonical(_ name: String, in ns: FeedNamespace) -> String {
    let known = ns == .itunes ? itunes : ns == .rss ? rss : [:]
    return known[name.lowercased()] ?? name
  }

  /// Whether `name` has an ASCII capital: only those need a look-up.
  package static func hasCapital(_ name: UnsafePointer<UInt8>) -> Bool {
    var byte = name
    while byte.pointee != 0 {
      if byte.pointee >= 0x41 && byte.pointee <= 0x5A { return true }
      byte += 1
    }
    return false
  }

  private static let rss: [String: String] = Dictionary(
    uniqueKeysWithValues: [
      "rss", "channel", "item", "title", "link", "description", "enclosure", "guid", "pubDate",
      "image", "url", "language", "author", "category", "comments", "source",
    ].map { ($0.lowercased(), $0) })

  private static let itunes: [String: String] = Dictionary(
    uniqueKeysWithValues: [
      "author", "summary", "image", "duration", "season", "episode", "episodeType", "explicit",
      "new-feed-url", "subtitle", "title", "link",
    ].map { ($0.lowercased(), $0) })
}
