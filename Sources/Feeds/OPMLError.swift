import Basics
import Foundation

/// Why a file could not be read as an OPML subscription list.
public enum OPMLError: SentenceError, Equatable {
  case empty
  case malformed(line: Int)
  case notOPML(rootElement: String)
  case noFeeds

  public var description: String {
    switch self {
    case .empty: return "the file is empty"
    case .malformed(let line): return "the file is not well-formed XML (line \(line))"
    case .notOPML(let root): return "this is not an OPML file (root element <\(root)>)"
    case .noFeeds: return "the OPML file lists no feeds (no outline has an http(s) xmlUrl)"
    }
  }
}
