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
/// `LibraryStore.recordSeen` does). When a fresh item's key is unknown, it may still be an old
/// episode whose GUID changed (same URL) or whose URL changed (same GUID): `identityKeys(...)`
/// lists every key the item answers to, and an item is old if any of them is the key of, or one
/// of the `identityKeys` of, a stored episode. `recordSeen` does this matching itself, with
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
    guard let slash = rest.firstIndex(of: "/") else {
      return rest.isEmpty ? nil : rest.lowercased()
    }
    let host = rest[..<slash].lowercased()
    return host.isEmpty ? nil : host + rest[slash...]
  }

  private static func withoutSchemeQueryAndFragment(_ url: String) -> String {
    var text = Substring(url)
    if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) {
      text = text[..<end]
    }
    // On the UTF-8 view: String's range(of:) is Foundation's search.
    if let scheme = text.utf8.firstRange(of: "://".utf8) {
      let name = text[..<scheme.lowerBound]
      if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
        text = text[scheme.upperBound...]
      }
    }
    return String(text)
  }
}
