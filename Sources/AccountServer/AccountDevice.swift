import Basics

/// One of the account's devices on a server with devices (a phone, a desktop app, this library).
public struct AccountDevice: Sendable, Equatable {
  public var id: String
  public var caption: String
  /// `mobile`, `desktop`, `laptop`, `server` or `other`, as the device said.
  public var type: String
  /// How many subscriptions the server counts for it (oPodSync always says 0).
  public var subscriptions: Int

  public init(id: String, caption: String, type: String, subscriptions: Int) {
    self.id = id
    self.caption = caption
    self.type = type
    self.subscriptions = subscriptions
  }
}
