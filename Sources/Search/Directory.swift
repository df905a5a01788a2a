import Basics

/// A podcast directory `podcast search` can ask. The raw value is the name users type
/// (`--directory apple,fyyd`, `directories = [...]`) and the one JSON output lists.
/// The order of the cases is the order of trust when merged results disagree: Apple's
/// catalogue is curated by hand, Podcast Index crawls the feeds themselves, fyyd crawls
/// fewer, and gpodder.net keeps whatever its users subscribed to.
public enum Directory: String, CaseIterable, Sendable, Comparable {
  case apple
  case podcastindex
  case fyyd
  case gpodder

  /// What the directory is called in a sentence.
  public var name: String {
    switch self {
    case .apple: return "Apple Podcasts"
    case .podcastindex: return "Podcast Index"
    case .fyyd: return "fyyd"
    case .gpodder: return "gpodder.net"
    }
  }

  /// What answers for the directory, as the subject of an error's sentence.
  public var apiName: String {
    self == .apple ? "the iTunes API" : name
  }

  /// What a user may type for `--directory`: the names, comma-separated, or `all`.
  public static let choices = allCases.map(\.rawValue).joined(separator: ",") + "|all"

  /// The directories named by `text` (`apple,fyyd`, `all`; case and spaces ignored), in
  /// the order given, each once. Throws `unknownDirectory` for a name that is none.
  public static func list(parsing text: String) throws(SearchError) -> [Directory] {
    var chosen: [Directory] = []
    for word in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = word.trimmingCharacters(in: .whitespaces).lowercased()
      if name == "all" {
        chosen += allCases
      } else if let directory = Directory(rawValue: name) {
        chosen.append(directory)
      } else {
        throw .unknownDirectory(String(word.trimmingCharacters(in: .whitespaces)))
      }
    }
    var seen = Set<Directory>()
    return chosen.filter { seen.insert($0).inserted }
  }

  public static func < (left: Directory, right: Directory) -> Bool {
    left.trust < right.trust
  }

  private var trust: Int {
    switch self {
    case .apple: return 0
    case .podcastindex: return 1
    case .fyyd: return 2
    case .gpodder: return 3
    }
  }
}
