import Basics
import Foundation
import Model
import Privacy
import Store

/// `podcast account`: the library's account, when it last exchanged what, and what waits for
/// the server. Only reads; the password is never part of what it returns.
public struct ShowAccount: Sendable {
  public struct Summary: Sendable {
    /// The server, secrets masked.
    public var server: String
    public var user: String
    public var device: String
    /// The device whose sync group this one joined (`account add --follow`).
    public var follows: String?
    public var api: AccountAPI?
    public var addedAt: Date
    /// When subscriptions, then episode actions, were last exchanged in full.
    public var subscriptionsExchanged: Date?
    public var actionsExchanged: Date?
    /// Why the last exchange failed, and when; nil once one succeeded.
    public var lastError: String?
    public var lastErrorAt: Date?
    /// Subscription changes and episode actions waiting for the next exchange.
    public var pendingChanges: Int
    public var pendingActions: Int
    /// Subscriptions the server knows.
    public var linkedSubscriptions: Int
  }

  private let paths: LibraryPaths

  public init(paths: LibraryPaths) {
    self.paths = paths
  }

  /// nil when the library has no account (or there is no library).
  public func run() throws -> Summary? {
    guard let store = try LibraryStore(readingAt: paths) else { return nil }
    let account = AccountState(store: store)
    guard let record = try account.record() else { return nil }
    let backlog = try account.backlog()
    return Summary(
      server: SecretMask.masked(record.server), user: record.user, device: record.device,
      follows: record.follows,
      api: AccountAPI(rawValue: record.api), addedAt: record.addedAt,
      subscriptionsExchanged: record.subscriptionsExchanged,
      actionsExchanged: record.actionsExchanged, lastError: record.lastError,
      lastErrorAt: record.lastErrorAt, pendingChanges: backlog.changes,
      pendingActions: backlog.actions, linkedSubscriptions: try account.serverURLs().count)
  }
}
