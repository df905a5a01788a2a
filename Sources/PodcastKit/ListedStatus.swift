import Downloads
import Model

/// An episode's state as listings show it: what the library holds of it, overridden by the
/// user's mark where the library holds nothing finished (a file on disk outranks a mark), and
/// how far it was played, here or on any device of the account.
public struct ListedStatus: Sendable, Equatable {
  public var download: EpisodeDownloadStatus
  public var mark: EpisodeMark.State?
  public var play: PlayState?
  /// Kept whatever the retention (`mark --keep-forever`).
  public var keptForever: Bool

  public init(
    download: EpisodeDownloadStatus, mark: EpisodeMark.State? = nil, play: PlayState? = nil,
    keptForever: Bool = false
  ) {
    self.download = download
    self.mark = mark
    self.play = play
    self.keptForever = keptForever
  }

  /// Heard to the end (`mark --played`, or a player that reached its end).
  public var played: Bool { play?.played == true }

  /// Where listening stopped, in seconds; nil when nobody has listened.
  public var position: Int? { play?.position }

  /// The play state of an episode known by `keys` (its identity keys), if any.
  static func play(keys: [String], in states: [String: PlayState]) -> PlayState? {
    states.isEmpty ? nil : keys.lazy.compactMap { states[$0] }.first
  }

  /// `new`, `partial`, `downloaded`, `deleted` or `skipped`, as `episodes --json` says.
  public var state: String {
    if download.state == .downloaded { return "downloaded" }
    switch mark {
    case .skip: return "skipped"
    case .downloaded: return "downloaded"
    case nil: return download.state.rawValue
    }
  }

  public var progress: Double {
    state == "downloaded" ? 1 : state == "skipped" ? 0 : download.progress
  }
}
