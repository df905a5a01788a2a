import Basics
import Foundation

/// A subscription change made in this library that the account's server has not been told
/// yet: a row of the library's journal, written in the same transaction as the change itself
/// (`subscribe`, `unsubscribe`, `import`, a feed that moved), so a change made while the server
/// was unreachable goes out at the next exchange that reaches it.
public struct AccountChange: Sendable, Equatable {
  public enum Kind: String, Sendable {
    case add
    case remove
  }

  /// The journal's order.
  public var id: Int64
  public var kind: Kind
  /// The feed's URL in the library when the change was made.
  public var feedURL: String
  /// For a removal, the URL the server knew the subscription by, when it knew it.
  public var serverURL: String?
  public var subscriptionId: Int64?

  public init(
    id: Int64, kind: Kind, feedURL: String, serverURL: String? = nil, subscriptionId: Int64? = nil
  ) {
    self.id = id
    self.kind = kind
    self.feedURL = feedURL
    self.serverURL = serverURL
    self.subscriptionId = subscriptionId
  }
}
