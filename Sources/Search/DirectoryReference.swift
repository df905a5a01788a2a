import Basics

/// A show named by its id in an open directory, as users type it where a FEED is taken:
/// `podcastindex:920666` (a Podcast Index feed id), `guid:917393e3-…` (the show's
/// `podcast:guid`, looked up in Podcast Index) or `fyyd:85` (a fyyd podcast id). The
/// directory's client turns it into the feed URL.
public enum DirectoryReference: Sendable, Equatable {
  case podcastIndexFeed(Int)
  case podcastGUID(String)
  case fyydPodcast(Int)

  /// Nil when `text` has none of the prefixes (so callers try other readings); throws
  /// `invalidReference` when it has one but no usable id after it.
  public static func parse(_ text: String) throws(SearchError) -> DirectoryReference? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    let lowered = trimmed.lowercased()
    for (prefix, make) in kinds where lowered.hasPrefix(prefix) {
      let rest = trimmed.dropFirst(prefix.count)
      guard let reference = make(rest) else { throw .invalidReference(trimmed) }
      return reference
    }
    return nil
  }

  /// The form `parse` reads and the search table prints.
  public var shortForm: String {
    switch self {
    case .podcastIndexFeed(let id): return "podcastindex:\(id)"
    case .podcastGUID(let guid): return "guid:\(guid)"
    case .fyydPodcast(let id): return "fyyd:\(id)"
    }
  }

  public var directory: Directory {
    switch self {
    case .podcastIndexFeed, .podcastGUID: return .podcastindex
    case .fyydPodcast: return .fyyd
    }
  }

  /// How a sentence names the show: "the Podcast Index id 920666".
  var phrase: String {
    switch self {
    case .podcastIndexFeed(let id): return "the Podcast Index id \(id)"
    case .podcastGUID(let guid): return "the podcast:guid \(guid)"
    case .fyydPodcast(let id): return "the fyyd id \(id)"
    }
  }

  private static let kinds: [(String, @Sendable (Substring) -> DirectoryReference?)] = [
    ("podcastindex:", { positiveNumber($0).map(DirectoryReference.podcastIndexFeed) }),
    ("fyyd:", { positiveNumber($0).map(DirectoryReference.fyydPodcast) }),
    ("guid:", { guid($0).map(DirectoryReference.podcastGUID) }),
  ]

  private static func positiveNumber(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }),
      let number = Int(text), number > 0
    else { return nil }
    return number
  }

  /// The namespace says a UUID (version 5), but feeds hold what their publishers wrote and
  /// Podcast Index matches the text as given, so anything without spaces or controls is
  /// passed on unchanged.
  private static func guid(_ text: Substring) -> String? {
    guard !text.isEmpty,
      text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
    else { return nil }
    return String(text)
  }
}
