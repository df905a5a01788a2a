import Basics
import Foundation
import Model

/// Why a subscription could not be refreshed, beyond transfer and feed errors.
public enum SyncError: SentenceError, Equatable {
  case movedToSubscribedFeed(url: String, name: String)
  /// The feed was refreshed, but the library refused to store what was learned.
  case cannotRecordRefresh(LibraryError)
  /// The library could not say which files are past the subscription's `keep`, or could not
  /// forget one it removed.
  case cannotPrune(subscription: String, LibraryError)
  /// A file past `keep` stays: the library refused to remove it (see the error).
  case cannotRemove(LibraryError)

  public var description: String {
    switch self {
    case .movedToSubscribedFeed(let url, let name):
      return "the feed moved to \(url), which is already subscribed as \"\(name)\"; "
        + "unsubscribe one of the two"
    case .cannotRecordRefresh(let error):
      return "cannot record the refresh: \(error)"
    case .cannotPrune(let subscription, let error):
      return "\(subscription): cannot prune: \(error)"
    case .cannotRemove(let error):
      return error.description
    }
  }
}
