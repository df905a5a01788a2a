import Basics

/// Why a transcript, chapters file or picture was not kept. Never an episode's failure: it
/// becomes a note beside the episode's result, and the next run tries again.
public enum SideFileError: Error, Equatable, CustomStringConvertible {
  /// The transfer failed after its retries (the reason names the URL).
  case fetch(reason: String)
  case htmlPage(url: String)
  case notJSON(url: String)
  case compressed(url: String)
  case empty(url: String)
  case notAPicture(url: String)
  case cannotWrite(path: String, reason: String)

  public var description: String {
    switch self {
    case .fetch(let reason): return reason
    case .htmlPage(let url): return "\(url): the server sent an HTML page instead of the file"
    case .notJSON(let url): return "\(url): the body is not JSON"
    case .compressed(let url):
      return "\(url): the server sent gzip-compressed bytes without saying so"
    case .empty(let url): return "\(url): the server sent an empty file (0 bytes)"
    case .notAPicture(let url): return "\(url): not a JPEG or PNG picture"
    case .cannotWrite(let path, let reason): return "\(path): cannot write: \(reason)"
    }
  }
}
