import Basics
import Foundation

/// What one exchange with the account's server did, or would do (`sync --dry-run`): the
/// subscriptions it brought here and took away, the changes and episode actions it sent, the
/// plays it recorded.
public struct AccountExchangeReport: Sendable, Equatable {
  /// The server's URL, secrets masked.
  public var server: String
  /// Feeds subscribed here because they were added on the server: names, or the server's URLs
  /// in a preview.
  public var subscribed: [String] = []
  /// Subscriptions removed here because they were removed on the server (their files stay).
  public var unsubscribed: [String] = []
  /// Feed URLs sent to the server as added, then as removed.
  public var sentAdded: [String] = []
  public var sentRemoved: [String] = []
  /// Episode actions sent (downloads, plays marked here).
  public var actionsSent = 0
  /// Episodes whose play state changed from what other devices did.
  public var playsRecorded = 0
  /// What the server sent that could not be applied here, a phrase each (a subscription to a
  /// URL that is no feed's, a play without a position, actions that could not be read).
  public var notApplied: [String] = []
  /// The exchange stopped on an error (told as it happened); what it did before stays done.
  public var failed = false

  public init(server: String) {
    self.server = server
  }

  /// Whether anything was (or would be) exchanged at all.
  public var isEmpty: Bool {
    subscribed.isEmpty && unsubscribed.isEmpty && sentAdded.isEmpty && sentRemoved.isEmpty
      && actionsSent == 0 && playsRecorded == 0 && notApplied.isEmpty
  }
}
