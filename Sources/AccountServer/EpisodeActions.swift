import Basics

/// The episode actions a server holds since a timestamp, and its clock for the next pull.
///
/// Both oPodSync and Nextcloud's app compare `since` with each action's own timestamp (the time
/// the device says it played), not with when the action reached the server: an action a phone
/// uploads late, stamped before the last pull, is not in the next one.
public struct EpisodeActions: Sendable, Equatable {
  public var actions: [EpisodeAction]
  /// The server's time of the answer, in seconds since 1970.
  public var timestamp: Int64
  /// Actions in the answer that could not be read (no feed, no episode, an unknown kind):
  /// left out, the rest kept.
  public var ignored: Int

  public init(actions: [EpisodeAction], timestamp: Int64, ignored: Int = 0) {
    self.actions = actions
    self.timestamp = timestamp
    self.ignored = ignored
  }
}
