import Foundation

/// What a user typed where a command takes FEED, sorted into the four kinds the contract allows.
public enum FeedSource: Equatable, Sendable {
  case url(String)
  case applePodcasts(id: String)
  case file(path: String)
  /// A subscription name, name prefix or number, looked up in the library.
  case subscription(String)

  /// Classifies `text` without touching the network or the library.
  public static func classify(_ text: String) throws -> FeedSource {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.lowercased().hasPrefix("itunes:") {
      let id = trimmed.dropFirst("itunes:".count)
      guard !id.isEmpty, id.allSatisfy(\.isASCIIDigit) else { throw FeedSourceError.badITunesID(trimmed) }
      return .applePodcasts(id: String(id))
    }
    if let scheme = scheme(of: trimmed) {
      switch scheme {
      case "http", "https":
        if let id = applePodcastsID(in: trimmed) { return .applePodcasts(id: id) }
        return .url(trimmed)
      case "file":
        guard let path = URL(string: trimmed)?.path, !path.isEmpty else {
          throw FeedSourceError.notFound(trimmed)
        }
        return .file(path: path)
      default:
        throw FeedSourceError.unsupportedScheme(trimmed)
      }
    }
    if FileManager.default.fileExists(atPath: trimmed) { return .file(path: trimmed) }
    if trimmed.contains("/") { throw FeedSourceError.notFound(trimmed) }
    return .subscription(trimmed)
  }

  private static func scheme(of text: String) -> String? {
    guard let colon = text.range(of: "://") else { return nil }
    let scheme = text[..<colon.lowerBound]
    guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" }) else {
      return nil
    }
    return scheme.lowercased()
  }

  /// `https://podcasts.apple.com/us/podcast/some-show/id173001861?i=1000` → "173001861".
  static func applePodcastsID(in url: String) -> String? {
    guard let components = URLComponents(string: url), let host = components.host?.lowercased(),
      host == "podcasts.apple.com" || host == "itunes.apple.com"
    else { return nil }
    for part in components.path.split(separator: "/").reversed() where part.hasPrefix("id") {
      let digits = part.dropFirst(2)
      if !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) { return String(digits) }
    }
    return nil
  }
}

/// Why a FEED argument could not be understood.
public enum FeedSourceError: Error, Equatable, CustomStringConvertible {
  case badITunesID(String)
  case unsupportedScheme(String)
  case notFound(String)

  public var description: String {
    switch self {
    case .badITunesID(let text): return "\(text): an iTunes id is itunes: followed by digits"
    case .unsupportedScheme(let text): return "\(text): only http and https feeds are supported"
    case .notFound(let text): return "\(text): no such file"
    }
  }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}
