import Basics

/// The subscription changes a server holds since a timestamp: feeds added and removed on any
/// device (on oPodSync and Nextcloud, this library's own pushes come back too), and the
/// server's clock to ask from next time.
public struct SubscriptionChanges: Sendable, Equatable {
  public var add: [String]
  public var remove: [String]
  /// Feed URLs the server rewrote (oPodSync and Nextcloud send none).
  public var updateURLs: [URLRewrite]
  /// The server's time of the answer, in seconds since 1970: `since` for the next pull.
  public var timestamp: Int64

  public init(add: [String], remove: [String], updateURLs: [URLRewrite] = [], timestamp: Int64) {
    self.add = add
    self.remove = remove
    self.updateURLs = updateURLs
    self.timestamp = timestamp
  }
}
