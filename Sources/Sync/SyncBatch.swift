import Basics
import Downloads
import Fetching
import Foundation
import Model

/// Downloads of one sync that share a destination, a concurrency and a bandwidth budget.
/// Subscriptions with their own `--episodes-dir`, `--concurrency` or `--limit-rate` get their
/// own batch; batches run one after another, so each budget holds for its whole batch.
public struct SyncBatch: Sendable {
  public var episodesDirectory: String
  public var concurrency: Int
  public var bytesPerSecond: Int64?
  public var downloads: [SyncPlan.PlannedDownload] = []

  /// Precedence: the run's own Episodes directory beats the subscription's folder (it is
  /// where this run was told to put things); the subscription's own concurrency beats the
  /// run's, as its name template does (`SyncRules`), so a default from config.toml never
  /// overrides a setting made for one subscription; for bandwidth the lower of the run's and
  /// the subscription's applies.
  package static func batches(
    _ downloads: [SyncPlan.PlannedDownload], settings: [Int64: SubscriptionSettings],
    runEpisodes: String?, defaultEpisodes: String, runConcurrency: Int?, runBytesPerSecond: Int64?
  ) -> [SyncBatch] {
    var batches: [SyncBatch] = []
    for planned in downloads {
      let batch = SyncBatch(
        settings[planned.subscriptionId] ?? SubscriptionSettings(), runEpisodes: runEpisodes,
        defaultEpisodes: defaultEpisodes, runConcurrency: runConcurrency,
        runBytesPerSecond: runBytesPerSecond)
      if let index = batches.firstIndex(where: { $0.sameKind(as: batch) }) {
        batches[index].downloads.append(planned)
      } else {
        batches.append(batch)
        batches[batches.count - 1].downloads.append(planned)
      }
    }
    return batches
  }

  /// The empty batch for a subscription with settings `own`; with no settings of its own, the
  /// run's batch.
  package init(
    _ own: SubscriptionSettings, runEpisodes: String?, defaultEpisodes: String,
    runConcurrency: Int?, runBytesPerSecond: Int64?
  ) {
    episodesDirectory =
      runEpisodes.map { URL(fileURLWithPath: $0).path } ?? own.episodesDir ?? defaultEpisodes
    concurrency = own.concurrency ?? runConcurrency ?? ParallelDownloads.defaultConcurrency
    bytesPerSecond = [runBytesPerSecond, own.limitRate].compactMap { $0 }.min()
  }

  /// Same folder, concurrency and budget: the downloads can run in one batch.
  package func sameKind(as other: SyncBatch) -> Bool {
    episodesDirectory == other.episodesDirectory && concurrency == other.concurrency
      && bytesPerSecond == other.bytesPerSecond
  }
}
