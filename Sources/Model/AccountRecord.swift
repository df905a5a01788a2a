import Basics
import Foundation

/// The sync-server account a library exchanges with, as the library keeps it: who and where,
/// and how far each kind of exchange has got. The password is never part of any text made from
/// a record.
public struct AccountRecord: Sendable, Equatable {
  /// The server's base URL, without a trailing slash.
  public var server: String
  public var user: String
  public var password: String
  /// This library's device ID on the server.
  public var device: String
  /// The device whose sync group this one joined (`--follow`); nil when none was.
  public var follows: String?
  /// `gpodder` or `nextcloud`: the API the server was found to speak.
  public var api: String
  public var addedAt: Date
  /// The server's clock at the last subscription pull that was applied: `since` for the next;
  /// nil before the first.
  public var subscriptionsSince: Int64?
  /// The same for episode actions.
  public var actionsSince: Int64?
  /// When subscriptions, then episode actions, were last exchanged in full.
  public var subscriptionsExchanged: Date?
  public var actionsExchanged: Date?
  /// Why the last exchange failed, and when; nil once one succeeds.
  public var lastError: String?
  public var lastErrorAt: Date?

  public init(
    server: String, user: String, password: String, device: String, api: String,
    follows: String? = nil, addedAt: Date = Date()
  ) {
    self.server = server
    self.user = user
    self.password = password
    self.device = device
    self.api = api
    self.follows = follows
    self.addedAt = addedAt
  }
}

/// Printed, dumped or interpolated, a record shows who, never the password (nor the server's
/// URL, which may carry a login: outputs show it through `SecretMask`).
extension AccountRecord: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String { "\(user) as device \(device)" }
  public var debugDescription: String { description }
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "user": user, "password": "…", "device": device, "api": api, "follows": follows as Any,
      ])
  }
}
