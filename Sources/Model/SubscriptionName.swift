import Basics
import Feeds
import Foundation

/// Short, typeable subscription names: lower-case words joined by dashes.
public enum SubscriptionName {
  package static let maximumLength = 40

  /// Words that say nothing about which podcast a URL is, so a name never becomes "rss".
  private static let genericWords: Set<String> = [
    "feed", "feeds", "rss", "rss2", "atom", "xml", "podcast", "podcasts", "index", "itunes",
    "audio",
  ]

  /// "The Daily (NYT)" -> "the-daily-nyt". Falls back to "podcast" when nothing is left.
  public static func slug(_ text: String) -> String {
    var words: [String] = []
    var current = ""
    for character in text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
      .lowercased()
    {
      if character.isASCII && (character.isLetter || character.isNumber) {
        current.append(character)
      } else if !current.isEmpty {
        words.append(current)
        current = ""
      }
    }
    if !current.isEmpty { words.append(current) }
    var slug = ""
    for word in words where slug.count + word.count + 1 <= maximumLength || slug.isEmpty {
      slug += slug.isEmpty ? word : "-" + word
    }
    slug = String(slug.prefix(maximumLength))
    if slug.isEmpty { return "podcast" }
    return slug.allSatisfy(\.isNumber) ? "podcast-" + slug : slug
  }

  /// A name guessed from a feed URL or file path: the most specific path segment that is not
  /// a generic word, else the host without `www.`/`feeds.` and the top-level domain.
  public static func guess(fromFeed location: String) -> String {
    let url =
      FeedLocation.isRemote(location) ? URL(string: location) : URL(fileURLWithPath: location)
    let segments = (url?.pathComponents ?? [])
      .filter { $0 != "/" }
      .map { ($0 as NSString).deletingPathExtension }
      .filter { !genericWords.contains($0.lowercased()) && !$0.isEmpty }
    if let specific = segments.last(where: { slug($0) != "podcast" && !$0.allSatisfy(\.isNumber) })
    {
      return slug(specific)
    }
    let hostWords = (url?.host ?? "").lowercased().split(separator: ".").map(String.init)
      .filter { !["www", "feeds", "feed", "rss"].contains($0) }
    return slug(hostWords.dropLast(hostWords.count > 1 ? 1 : 0).joined(separator: "-"))
  }

  /// Numbers select subscriptions by position, so an all-digit name could never be typed.
  package static func validate(_ name: String) throws {
    if name.trimmingCharacters(in: .whitespaces).isEmpty {
      throw LibraryError.invalidName(name, reason: "it is empty")
    }
    if name.allSatisfy(\.isNumber) {
      throw LibraryError.invalidName(
        name, reason: "numbers select subscriptions by position; add a letter")
    }
    if name != name.trimmingCharacters(in: .whitespacesAndNewlines) {
      throw LibraryError.invalidName(name, reason: "it starts or ends with a space")
    }
  }
}
