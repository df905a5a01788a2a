import Basics
import Foundation

/// Why the library could not do what was asked. Each case reads as a sentence.
public enum LibraryError: SentenceError, Equatable {
  case cannotCreateDirectory(path: String, reason: String)
  case notADirectory(path: String)
  case directoryNotWritable(path: String)
  case unreadableDatabase(path: String, reason: String)
  case databaseFailed(path: String, reason: String)
  case emptyDatabase(path: String)
  case newerLibrary(path: String)
  case busy
  case cannotLock(path: String, reason: String)
  case duplicateName(String)
  case duplicateFeed(url: String, name: String)
  case invalidName(String, reason: String)
  case invalidKeep(Int)
  case noSubscription(String, count: Int)
  case noSubscriptionNumber(Int, count: Int)
  case ambiguousSubscription(String, candidates: [String])
  case unknownSubscription(id: Int64)
  case unknownEpisode(key: String)
  /// A recorded file outside the Episodes directory (a damaged or hand-edited database).
  case outsideEpisodes(file: String, episodes: String)
  case cannotDelete(path: String, reason: String)
  /// A change of a download's row that `DownloadTransition` does not allow from its state
  /// (`from` nil: the library has no row of it).
  case illegalDownloadMove(url: String, move: String, from: String?)
  /// `account add` on a library linked to an account already.
  case accountExists(user: String, server: String)
  /// An account command on a library without one.
  case noAccount
  /// An error of another kind from inside a store operation; its own sentence.
  case failed(String)

  /// `error` as the library's: itself when it is one (the store turns SQLite's errors into
  /// these), else `.failed` with its sentence, so callers keep one typed cause.
  public init(_ error: any Error) {
    self = error as? LibraryError ?? .failed(String(describing: error))
  }

  public var description: String {
    switch self {
    case .cannotCreateDirectory(let path, let reason):
      return "cannot create the directory \(path): \(reason)"
    case .notADirectory(let path):
      return "\(path) exists but is not a directory"
    case .directoryNotWritable(let path):
      return "the directory \(path) is not writable"
    case .unreadableDatabase(let path, let reason):
      return "cannot open the library database \(path): \(reason)"
    case .databaseFailed(let path, let reason):
      return "the library database \(path) failed: \(reason)"
    case .emptyDatabase(let path):
      return "the library database \(path) is empty (0 bytes): it was truncated or never "
        + "finished writing; restore it from a backup, or move it away to start a new library"
    case .newerLibrary(let path):
      return "the library at \(path) was written by a newer podcast; upgrade podcast to use it"
    case .busy:
      return "the library is busy: another podcast sync holds its lock"
    case .cannotLock(let path, let reason):
      return "cannot lock \(path): \(reason)"
    case .duplicateName(let name):
      return "there is already a subscription named \"\(name)\""
    case .duplicateFeed(let url, let name):
      return "already subscribed to \(url) as \"\(name)\""
    case .invalidName(let name, let reason):
      return "\"\(name)\" cannot be a subscription name: \(reason)"
    case .invalidKeep(let count):
      return "cannot keep \(count) episodes: the retention count must be at least 1"
    case .noSubscription(let text, let count):
      return count == 0
        ? "no subscription matches \"\(text)\": there are no subscriptions yet"
        : "no subscription matches \"\(text)\""
    case .noSubscriptionNumber(let number, let count):
      return "there is no subscription number \(number): there are \(count)"
    case .ambiguousSubscription(let text, let candidates):
      return "\"\(text)\" matches several subscriptions (\(candidates.joined(separator: ", "))); "
        + "type more of the name"
    case .unknownSubscription(let id):
      return "there is no subscription with id \(id)"
    case .unknownEpisode(let key):
      return "no episode with identity \(key) has been seen in this subscription"
    case .outsideEpisodes(let file, let episodes):
      return "\(file) is outside \(episodes); left in place"
    case .cannotDelete(let path, let reason):
      return "cannot delete \(path): \(reason)"
    case .illegalDownloadMove(let url, let move, let from):
      return "cannot \(move) the download of \(url): it is \(from ?? "not in the library")"
    case .accountExists(let user, let server):
      return "this library already syncs with \(server) as \(user): "
        + "`podcast account remove` it first"
    case .noAccount:
      return "this library has no sync account: add one with `podcast account add URL --user NAME`"
    case .failed(let sentence):
      return sentence
    }
  }
}
