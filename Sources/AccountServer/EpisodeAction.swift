import Basics
import Foundation

/// Something a device did with an episode, as sync servers keep it: downloaded it, played it
/// to a position, deleted it. An episode is named by its feed's URL and its enclosure URL as
/// the feed gives it, and by its GUID where the device knew one.
public struct EpisodeAction: Sendable, Equatable {
  public enum Kind: String, Sendable, CaseIterable {
    case download, play, delete, new
  }

  /// The feed's URL as the server knows the subscription.
  public var podcast: String
  /// The enclosure URL as the feed gives it.
  public var episode: String
  public var guid: String?
  public var kind: Kind
  /// When the device did it (whole seconds, UTC); nil when the server gave no time.
  public var timestamp: Date?
  /// For `play`: where playing started, where it stopped, and the episode's length, in
  /// seconds; nil where not known.
  public var started: Int?
  public var position: Int?
  public var total: Int?
  /// The device that did it, where the server says.
  public var device: String?

  public init(
    podcast: String, episode: String, guid: String? = nil, kind: Kind, timestamp: Date? = nil,
    started: Int? = nil, position: Int? = nil, total: Int? = nil, device: String? = nil
  ) {
    self.podcast = podcast
    self.episode = episode
    self.guid = guid
    self.kind = kind
    self.timestamp = timestamp
    self.started = started
    self.position = position
    self.total = total
    self.device = device
  }

  /// A `download` action for an episode this library downloaded at `time`.
  public static func download(podcast: String, episode: String, guid: String?, at time: Date)
    -> EpisodeAction
  {
    EpisodeAction(podcast: podcast, episode: episode, guid: guid, kind: .download, timestamp: time)
  }

  /// A `play` action: played from `started` to `position` of `total` seconds, at `time`.
  public static func play(
    podcast: String, episode: String, guid: String?, started: Int = 0, position: Int,
    total: Int?, at time: Date
  ) -> EpisodeAction {
    EpisodeAction(
      podcast: podcast, episode: episode, guid: guid, kind: .play, timestamp: time,
      started: started, position: position, total: total)
  }

  /// The action as the servers take it in an upload. The time goes without a zone, in UTC, as
  /// gpodder.net documents it and AntennaPod sends it; the play fields only with `play`.
  var json: JSONValue {
    var pairs: [(String, JSONValue)] = [
      ("podcast", .string(podcast)), ("episode", .string(episode)),
    ]
    if let guid { pairs.append(("guid", .string(guid))) }
    pairs.append(("action", .string(kind.rawValue)))
    if let timestamp { pairs.append(("timestamp", .string(Self.uploadTime(timestamp)))) }
    if kind == .play {
      if let started { pairs.append(("started", .int(started))) }
      pairs.append(("position", .int(position ?? 0)))
      if let total { pairs.append(("total", .int(total))) }
    }
    if let device { pairs.append(("device", .string(device))) }
    return .object(pairs)
  }

  /// `2026-11-27T10:00:00`: ISO 8601 in UTC without the `Z`.
  static func uploadTime(_ date: Date) -> String {
    String(ISO8601.string(date).dropLast())
  }
}
