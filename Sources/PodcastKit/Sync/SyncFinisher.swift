import Foundation

/// The cron job's second half: records which episodes arrived and prunes old files beyond
/// each subscription's `keep`.
public struct SyncFinisher: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  public func record(_ plan: SyncPlan, results: [DownloadResult]) {
    let keys = Dictionary(
      plan.downloads.map { ($0.job.url, $0) }, uniquingKeysWith: { first, _ in first })
    for result in results {
      guard let planned = keys[result.job.url] else { continue }
      switch result.outcome {
      case .downloaded(let file, _), .alreadyDownloaded(let file):
        try? store.markEpisodeDownloaded(
          subscriptionId: planned.subscriptionId, key: planned.episodeKey, file: file)
      case .failed:
        continue
      }
    }
  }

  /// Deletes downloaded files beyond the newest `keep` of each subscription; returns them.
  public func prune(_ subscriptions: [Subscription]) -> [String] {
    var removed: [String] = []
    for subscription in subscriptions {
      guard let keep = subscription.keep, let id = subscription.id,
        let seen = try? store.seenEpisodes(subscriptionId: id)
      else { continue }
      let downloaded = seen.filter { $0.downloadedFile != nil }.sorted {
        ($0.published ?? $0.firstSeen) > ($1.published ?? $1.firstSeen)
      }
      for episode in downloaded.dropFirst(max(0, keep)) {
        guard let file = episode.downloadedFile else { continue }
        if (try? FileManager.default.removeItem(atPath: file)) != nil
          || !FileManager.default.fileExists(atPath: file)
        {
          try? store.markEpisodeDownloaded(subscriptionId: id, key: episode.key, file: nil)
          removed.append(file)
        }
      }
    }
    return removed
  }
}
