import PodcastKit

/// What one sync did: the plan it made, each download's result, what was pruned and what was
/// completed beside earlier episodes. Failures were said on stderr as they happened; this
/// keeps what the report and the exit status need.
struct SyncOutcome {
  var plan: SyncPlan
  var results: [DownloadResult]
  var pruning: SyncPruner.Outcome
  var sideFiles: SideFileCompletion
  /// False when `--playlist FILE` could not be written.
  var playlistWritten: Bool

  var pruned: [String] { pruning.removed }

  /// A feed, an episode, a prune or the `--playlist` file failed: the run exits 1.
  var failed: Bool {
    results.contains { if case .failed = $0.outcome { true } else { false } }
      || !plan.failedFeeds.isEmpty || !pruning.failures.isEmpty || !playlistWritten
  }
}
