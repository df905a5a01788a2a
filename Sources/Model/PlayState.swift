import Basics
import Foundation

/// How far an episode was listened to, on any device: from `mark --played`/`--unplayed` here,
/// or from the `play` and `new` actions the account's server holds. Keyed, like marks, by the
/// episode's identity key alone, so it follows a feed that moves.
public struct PlayState: Sendable, Equatable {
  public var key: String
  /// The feed it was heard of in, for people reading the database.
  public var feedURL: String?
  /// Seconds into the episode where listening stopped; nil when not known.
  public var position: Int?
  /// The episode's length in seconds, as the player knew it; nil when not known.
  public var total: Int?
  public var played: Bool
  /// When it became played: retention (`--delete-played`) counts from here.
  public var playedAt: Date?
  /// The time of the action this state comes from: only a later one changes it.
  public var actedAt: Date

  public init(
    key: String, feedURL: String? = nil, position: Int? = nil, total: Int? = nil,
    played: Bool = false, playedAt: Date? = nil, actedAt: Date
  ) {
    self.key = key
    self.feedURL = feedURL
    self.position = position
    self.total = total
    self.played = played
    self.playedAt = playedAt
    self.actedAt = actedAt
  }

  /// Whether listening to `position` of `total` seconds is hearing the episode out: within its
  /// last minute or its last 2%, as players mark an episode played before its silence ends.
  public static func reachesEnd(position: Int, total: Int?) -> Bool {
    guard let total, total > 0 else { return false }
    return position >= total - 60 || Double(position) >= Double(total) * 0.98
  }

  /// A play heard up to `position` of `total` at `time`, over `earlier` (the state so far);
  /// nil when `earlier` is as recent or more (an action seen again, or out of order). Once
  /// played, an episode stays played until it is marked new: listening to a part again is
  /// not un-hearing it.
  public static func after(
    play position: Int, total: Int?, at time: Date, key: String, feedURL: String?,
    over earlier: PlayState?
  ) -> PlayState? {
    if let earlier, earlier.actedAt >= time { return nil }
    let total = total.flatMap { $0 > 0 ? $0 : nil } ?? earlier?.total
    let heard = reachesEnd(position: position, total: total)
    let wasPlayed = earlier?.played == true
    return PlayState(
      key: key, feedURL: feedURL ?? earlier?.feedURL, position: max(0, position), total: total,
      played: heard || wasPlayed, playedAt: wasPlayed ? earlier?.playedAt : heard ? time : nil,
      actedAt: time)
  }

  /// The episode marked new (unplayed) at `time`, over `earlier`; nil when `earlier` is as
  /// recent or more.
  public static func after(
    markedNewAt time: Date, key: String, feedURL: String?, over earlier: PlayState?
  ) -> PlayState? {
    if let earlier, earlier.actedAt >= time { return nil }
    return PlayState(
      key: key, feedURL: feedURL ?? earlier?.feedURL, position: nil, total: earlier?.total,
      played: false, playedAt: nil, actedAt: time)
  }
}
