import Basics
import Foundation
import Model
import Transfer

#if canImport(Glibc)
  import Glibc
#endif

/// Why an episode did not end up in the Episodes directory.
public enum DownloadError: SentenceError, Equatable {
  case htmlInsteadOfMedia(url: String)
  case lengthMismatch(url: String, expected: Int64, received: Int64)
  case diskFull(path: String)
  case cannotWrite(path: String, reason: String)
  case busyElsewhere(url: String)
  case changedOnServer(url: String, reason: String)
  case emptyBody(url: String)
  case tooSmall(url: String, received: Int64, reason: String)
  case compressed(url: String, how: String)
  case cannotRecord(url: String, LibraryError)

  public var description: String {
    switch self {
    case .htmlInsteadOfMedia(let url):
      return "\(url): the server sent an HTML page instead of the episode"
    case .lengthMismatch(let url, let expected, let received):
      return "\(url): got \(received) bytes, but the server announced \(expected)"
    case .diskFull(let path): return "\(path): no space left on the device"
    case .cannotWrite(let path, let reason): return "\(path): cannot write: \(reason)"
    case .busyElsewhere(let url):
      return "\(url): another podcast process is downloading this episode right now"
    case .changedOnServer(let url, let reason):
      return "\(url): the file changed on the server while it was downloading (\(reason))"
    case .emptyBody(let url): return "\(url): the server sent an empty file (0 bytes)"
    case .tooSmall(let url, let received, let reason):
      return "\(url): the server sent only \(received) bytes, \(reason)"
    case .compressed(let url, let how):
      return "\(url): the server sent the episode gzip-compressed (\(how)), not the media file"
    case .cannotRecord(let url, let reason):
      return "\(url): downloaded, but the library cannot record it: \(reason)"
    }
  }

  /// What a failed write, sync or link of `path` means, from the `errno` it left. EFBIG (a
  /// `ulimit -f`) keeps its own words: calling it a full disk would send the user looking for
  /// space that is there.
  package static func writing(_ path: String, errno code: Int32 = errno) -> DownloadError {
    code == ENOSPC || code == EDQUOT
      ? .diskFull(path: path) : .cannotWrite(path: path, reason: String(cString: strerror(code)))
  }

  /// A retry (resuming from what is on disk) may succeed.
  public var isTransient: Bool {
    switch self {
    case .lengthMismatch, .changedOnServer, .emptyBody, .tooSmall, .compressed:
      return true
    default: return false
    }
  }
}

extension DownloadError: TransientFailure {}
