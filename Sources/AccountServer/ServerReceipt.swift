import Basics

/// What a server says after taking subscription changes or episode actions.
public struct ServerReceipt: Sendable, Equatable {
  /// The server's time of the change, in seconds since 1970; nil when the server sent none
  /// (older Nextcloud gpoddersync answers a subscription push with nothing).
  public var timestamp: Int64?
  /// URLs the server rewrote as it stored them.
  public var updateURLs: [URLRewrite]

  public init(timestamp: Int64?, updateURLs: [URLRewrite] = []) {
    self.timestamp = timestamp
    self.updateURLs = updateURLs
  }
}
