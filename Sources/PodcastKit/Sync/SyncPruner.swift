import Foundation

/// The cron job's last step: deletes downloaded files beyond each subscription's `keep`.
/// Episodes are recorded the moment they land (by the downloader), so this also prunes what a
/// killed or interrupted earlier run finished.
public struct SyncPruner: Sendable {
  public struct Outcome: Sendable, Equatable {
    public var removed: [String] = []
    /// One sentence per file or subscription that could not be pruned.
    public var failures: [String] = []
  }

  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  public func prune(_ subscriptions: [Subscription]) -> Outcome {
    var outcome = Outcome()
    for subscription in subscriptions {
      guard let keep = subscription.keep, let id = subscription.id else { continue }
      do {
        let downloaded = try store.seenEpisodes(subscriptionId: id)
          .filter { $0.downloadedFile != nil }
          .sorted { ($0.published ?? $0.firstSeen) > ($1.published ?? $1.firstSeen) }
        for episode in downloaded.dropFirst(max(0, keep)) {
          guard let file = episode.downloadedFile else { continue }
          if let failure = remove(file) {
            outcome.failures.append(failure)
            continue
          }
          try store.markEpisodeDownloaded(subscriptionId: id, key: episode.key, file: nil)
          try store.forgetFinishedDownloads(files: [file])
          outcome.removed.append(file)
        }
      } catch {
        outcome.failures.append("\(subscription.name): cannot prune: \(error)")
      }
    }
    return outcome
  }

  /// nil when the file is gone (now or already).
  private func remove(_ file: String) -> String? {
    let outcome = DownloadedFiles.delete([file], paths: store.paths)
    return outcome.failures.first
  }
}
