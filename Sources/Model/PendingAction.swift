import Basics
import Foundation

/// An episode action this library owes the account's server: a `download` recorded in the
/// same commit as the finished download, or a `play`/`new` from `mark --played`/`--unplayed`.
/// A row of the library's outbox until the server has it.
public struct PendingAction: Sendable, Equatable {
  public enum Kind: String, Sendable {
    case download
    case play
    /// Marked unplayed: gpodder.net's name for an episode to be heard again.
    case new
    /// Its file deleted here (by hand, by retention or as played).
    case delete
  }

  public var id: Int64
  public var kind: Kind
  /// The feed the episode is listed in, as the library has it.
  public var feedURL: String?
  /// The enclosure URL as the feed gives it.
  public var episodeURL: String
  public var guid: String?
  public var at: Date
  /// For `play`: the position reached and the episode's length, in seconds.
  public var position: Int?
  public var total: Int?
  /// Whether an upload of it was begun before: the server may have it already.
  public var sent: Bool

  public init(
    id: Int64, kind: Kind, feedURL: String?, episodeURL: String, guid: String? = nil, at: Date,
    position: Int? = nil, total: Int? = nil, sent: Bool = false
  ) {
    self.id = id
    self.kind = kind
    self.feedURL = feedURL
    self.episodeURL = episodeURL
    self.guid = guid
    self.at = at
    self.position = position
    self.total = total
    self.sent = sent
  }
}
