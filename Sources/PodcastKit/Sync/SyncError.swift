/// Why a subscription could not be refreshed, beyond transfer and feed errors.
public enum SyncError: Error, Equatable, CustomStringConvertible {
  case movedToSubscribedFeed(url: String, name: String)

  public var description: String {
    switch self {
    case .movedToSubscribedFeed(let url, let name):
      return "the feed moved to \(url), which is already subscribed as \"\(name)\"; "
        + "unsubscribe one of the two"
    }
  }
}
