import Basics
import Downloads
import Model

/// `sync --dry-run`: what a run would download and where, and what it would prune.
public struct SyncPreview: Sendable {
  /// Each planned episode with the path it would get.
  public let planned: [(job: DownloadJob, file: String)]
  public let prunable: [String]
  /// How many subscriptions were planned; none when the library has none.
  public let subscriptions: Int
  /// A feed could not be refreshed: the preview may miss its episodes.
  public let feedsFailed: Bool
  /// What the exchange with the library's account would do; nil without one.
  public var account: AccountExchangeReport?

  package init(
    subscriptions: Int, batches: [SyncBatch], prunable: [String], feedsFailed: Bool
  ) {
    self.subscriptions = subscriptions
    self.feedsFailed = feedsFailed
    // One the library has already would be skipped, not downloaded.
    planned = batches.flatMap { batch in
      batch.downloads.filter { !$0.alreadyHad }.map {
        (job: $0.job, file: batch.episodesDirectory + "/" + $0.job.relativePath)
      }
    }
    self.prunable = prunable
  }
}
