import Downloads
import Model

/// An episode's state as listings show it: what the library holds of it, overridden by the
/// user's mark where the library holds nothing finished (a file on disk outranks a mark).
public struct ListedStatus: Sendable, Equatable {
  public var download: EpisodeDownloadStatus
  public var mark: EpisodeMark.State?

  public init(download: EpisodeDownloadStatus, mark: EpisodeMark.State? = nil) {
    self.download = download
    self.mark = mark
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
