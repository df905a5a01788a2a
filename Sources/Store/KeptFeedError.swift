import Basics
import Foundation
import Model

/// Why the library's copy of a feed could not be kept or read. Each case reads as a sentence.
public enum KeptFeedError: SentenceError, Equatable {
  /// The copy is there but not whole: cut short, corrupted, or of a format this build does
  /// not read. `path` nil: the bytes were not read from a file.
  case damaged(path: String?, reason: String)
  case unreadable(path: String, reason: String)
  case cannotWrite(path: String, reason: String)
  /// zlib refused to start or failed; a fault of this machine, not of the feed.
  case compression(String)

  public var description: String {
    switch self {
    case .damaged(let path, let reason):
      return "\(path ?? "the library's copy of the feed"): the kept copy of the feed is damaged"
        + " (\(reason))"
    case .unreadable(let path, let reason):
      return "\(path): cannot read the kept copy of the feed: \(reason)"
    case .cannotWrite(let path, let reason):
      return "\(path): cannot keep a copy of the feed: \(reason)"
    case .compression(let reason): return "cannot compress the copy of the feed: \(reason)"
    }
  }
}
