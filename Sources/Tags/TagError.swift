import Basics
import Foundation

/// Why a file could not be tagged. Each case reads as a sentence.
public enum TagError: SentenceError, Equatable {
  case unreadable(path: String, reason: String)
  case cannotOpen(path: String, format: AudioFormat)
  case cannotSave(path: String, format: AudioFormat)
  case failed(path: String, format: AudioFormat)

  /// Whether the file is exactly as it was before: then the download can still finish, as
  /// served, with this as a note. When false, TagLib may have stopped halfway through
  /// rewriting it, and the partial must be downloaded again.
  public var leftFileUntouched: Bool {
    switch self {
    case .unreadable, .cannotOpen: return true
    case .cannotSave, .failed: return false
    }
  }

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "cannot read \(path) to tag it: \(reason)"
    case .cannotOpen(let path, let format):
      return "TagLib cannot open \(path) as \(format) for writing (damaged or read-only)"
    case .cannotSave(let path, let format):
      return "TagLib could not save the tags into \(path) (\(format)); the file may be damaged"
    case .failed(let path, let format):
      return
        "TagLib failed while tagging \(path) (\(format)): out of memory or a TagLib bug; the file may be damaged"
    }
  }
}
