import Basics
import Foundation

/// Why a document could not be read as a feed. Each case reads as a sentence after the source.
public enum FeedError: SentenceError, Equatable {
  case empty
  case htmlPage
  case compressed
  case notAFeed(rootElement: String)
  case malformed(line: Int, reason: String)
  case unreadable(path: String, reason: String)
  /// The document stops before its root element closes: cut short on the way or at the
  /// server. Taken as it is, it would hide every episode after the cut.
  case truncated(bytes: Int, root: String)

  public var description: String {
    switch self {
    case .empty: return "the document is empty"
    case .htmlPage: return "this is an HTML page, not a feed"
    case .compressed:
      return
        "this is gzip-compressed data, not XML (a server that compresses must say so with Content-Encoding)"
    case .notAFeed(let root): return "this is not an RSS or Atom feed (root element <\(root)>)"
    case .malformed(let line, let reason):
      return "the feed is not well-formed XML and has no readable items (line \(line): \(reason))"
    case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
    case .truncated(let bytes, let root):
      return "the feed ends after \(bytes) bytes, before its <\(root)> closes: it was cut short"
    }
  }
}
