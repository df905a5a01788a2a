import Basics
import Feeds
import Foundation

/// Says when two feed items are the same episode, so a re-listed episode never downloads twice.
///
/// Layers, strongest first: the GUID; else the enclosure URL reduced to `host/path` (no scheme,
/// query, fragment or tracking prefixes, which publishers add, swap and re-order); else the title
/// with the publication date.
///
/// How sync should use it: store each episode under `key(...)` (that is what
/// `EpisodeLog.record` does). When a fresh item's key is unknown, it may still be an old
/// episode whose GUID changed (same URL) or whose URL changed (same GUID): `identityKeys(...)`
/// lists every key the item answers to, and an item is old if any of them is the key of, or one
/// of the `identityKeys` of, a stored episode. `EpisodeLog.record` does this matching itself, with
/// guards against URLs that do not identify an episode (see there).
public enum EpisodeIdentity {
  public static func key(guid: String?, enclosureURL: String?, title: String?, published: Date?)
    -> String
  {
    if let guidKey = guidKey(guid) { return guidKey }
    if let urlKey = urlKey(enclosureURL) { return urlKey }
    return titleKey(title: title, published: published)
  }

  /// Every key the episode can be recognised by: its GUID key and its URL key when it has them,
  /// the title key only when it has neither (titles alone are too weak to merge episodes).
  /// The first element is always `key(...)`.
  public static func identityKeys(
    guid: String?, enclosureURL: String?, title: String?, published: Date?
  ) -> [String] {
    let keys = [guidKey(guid), urlKey(enclosureURL)].compactMap { $0 }
    return keys.isEmpty ? [titleKey(title: title, published: published)] : keys
  }

  /// Each episode's `identityKeys`, without those another episode of the same feed also has
  /// (feeds that give every item one GUID, or one URL with the id in the query string): a key
  /// that names two episodes identifies neither.
  public static func distinctKeys(of episodes: [Episode]) -> [[String]] {
    let keys = episodes.map {
      identityKeys(
        guid: $0.guid, enclosureURL: $0.enclosure.url, title: $0.title, published: $0.published)
    }
    var counts: [String: Int] = [:]
    for list in keys { for key in Set(list) { counts[key, default: 0] += 1 } }
    return keys.map { list in list.filter { counts[$0] == 1 } }
  }

  package static func guidKey(_ guid: String?) -> String? {
    guard let trimmed = guid?.trimmingWhitespace, !trimmed.isEmpty
    else { return nil }
    return "guid:" + trimmed
  }

  package static func urlKey(_ url: String?) -> String? {
    guard let url, let normalised = normalisedURL(url) else { return nil }
    return "url:" + normalised
  }

  package static func titleKey(title: String?, published: Date?) -> String {
    let name = title?.trimmingWhitespace ?? ""
    let date = published.map { $0.formatted(.iso8601) } ?? ""
    return "title:\(name)|\(date)"
  }

  /// `https://dts.podtrac.com/redirect.mp3/chtbl.com/track/AB12/Example.COM/a/b.mp3?x=1`
  /// -> `example.com/a/b.mp3`.
  public static func normalisedURL(_ url: String) -> String? {
    var rest = withoutSchemeQueryAndFragment(url.trimmingWhitespace)
    while let stripped = TrackingPrefix.strip(rest) {
      rest = withoutSchemeQueryAndFragment(stripped)
    }
    guard let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")) else {
      return rest.isEmpty ? nil : rest.lowercased()
    }
    let host = rest[..<slash].lowercased()
    return host.isEmpty ? nil : host + rest[slash...]
  }

  /// On the UTF-8 view throughout: every character looked for is ASCII, and walking the
  /// text as characters (grapheme clusters) costs far more, for every episode of every feed.
  private static func withoutSchemeQueryAndFragment(_ url: String) -> String {
    let utf8 = url.utf8
    let end =
      utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? utf8.endIndex
    var start = utf8.startIndex
    if let scheme = schemeSeparator(in: utf8[..<end]) {
      let name = url[..<scheme.lowerBound]
      let isScheme =
        name.utf8.allSatisfy { $0 < 0x80 }
        ? name.utf8.allSatisfy { byte in
          byte.isASCIILetterOrDigit || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
        }
        : name.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
      if !name.isEmpty, isScheme { start = scheme.upperBound }
    }
    return String(url[start..<end])
  }

  /// The first "://" of `text`: a plain walk over the bytes, where the generic
  /// `firstRange(of:)` cost a tenth of a first sync's planning.
  private static func schemeSeparator(in text: Substring.UTF8View) -> Range<String.Index>? {
    var index = text.startIndex
    while let colon = text[index...].firstIndex(of: UInt8(ascii: ":")) {
      let after = text[text.index(after: colon)...]
      if after.starts(with: "//".utf8) {
        return colon..<text.index(colon, offsetBy: 3)
      }
      index = text.index(after: colon)
    }
    return nil
  }
}
