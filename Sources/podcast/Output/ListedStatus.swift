import PodcastKit

/// An episode's state as listings show it: what the library holds of it, overridden by the
/// user's mark where the library holds nothing finished.
struct ListedStatus {
  var download: EpisodeDownloadStatus
  var mark: EpisodeMark.State?

  /// `new`, `partial`, `downloaded` or `skipped`, as `episodes --json` says.
  var state: String {
    if download.state == .downloaded { return "downloaded" }
    switch mark {
    case .skip: return "skipped"
    case .downloaded: return "downloaded"
    case nil: return download.state.rawValue
    }
  }

  var progress: Double {
    state == "downloaded" ? 1 : state == "skipped" ? 0 : download.progress
  }
}
