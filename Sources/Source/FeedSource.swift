import Basics
import Feeds
import Foundation
import Search

/// What a user typed where a command takes FEED, sorted into the kinds the README names (a
/// feed URL, an Apple Podcasts link or `itunes:` id, a directory's id, a subscription, a file).
public enum FeedSource: Equatable, Sendable {
  case url(String)
  case applePodcasts(id: String)
  /// `podcastindex:ID`, `guid:GUID` or `fyyd:ID`: a show named by an open directory's id.
  case directory(DirectoryReference)
  case file(path: String)
  /// A subscription name, name prefix or number, looked up in the library.
  case subscription(String)

  /// Classifies `text` without touching the network or the library.
  public static func classify(_ text: String) throws -> FeedSource {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let link = ApplePodcastsLink(trimmed) { return .applePodcasts(id: String(link.podcastID)) }
    if trimmed.lowercased().hasPrefix("itunes:") { throw FeedSourceError.badITunesID(trimmed) }
    if let reference = try DirectoryReference.parse(trimmed) { return .directory(reference) }
    if let scheme = FeedLocation.scheme(of: trimmed) {
      switch scheme {
      case "http", "https":
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
}

/// Why a FEED argument could not be understood.
public enum FeedSourceError: SentenceError, Equatable {
  case badITunesID(String)
  case unsupportedScheme(String)
  case notFound(String)

  public var description: String {
    switch self {
    case .badITunesID(let text): return "\(text): an iTunes id is itunes: followed by digits"
    case .unsupportedScheme(let text): return "\(text): only http and https feeds are supported"
    case .notFound(let text): return "\(text): no such file, URL or subscription"
    }
  }
}
