import Basics
import Foundation

/// What another device says it did with an episode, as the account's server reports it: played
/// it to a position, or marked it new. Named by the feed's URL as the server knows it and the
/// enclosure URL as the feed gives it, and by its GUID where the device knew one.
public struct PlayReport: Sendable, Equatable {
  public enum Kind: Sendable {
    case play(position: Int, total: Int?)
    case markedNew
  }

  public var podcast: String
  public var episode: String
  public var guid: String?
  public var kind: Kind
  public var at: Date

  public init(podcast: String, episode: String, guid: String?, kind: Kind, at: Date) {
    self.podcast = podcast
    self.episode = episode
    self.guid = guid
    self.kind = kind
    self.at = at
  }
}

extension PlayReport.Kind: Equatable {}
