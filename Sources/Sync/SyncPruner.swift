import Basics
import Foundation
import Model
import SideFiles
import Store

/// The cron job's last step: deletes downloaded files beyond each subscription's `keep`.
/// Episodes are recorded the moment they land (by the downloader), so this also prunes what a
/// killed or interrupted earlier run finished.
public struct SyncPruner: Sendable {
  public struct Outcome: Sendable, Equatable {
    public var removed: [String] = []
    /// One per file or subscription that could not be pruned.
    public var failures: [SyncError] = []

    package init() {}
  }

  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  public func prune(_ subscriptions: [Subscription]) -> Outcome {
    var outcome = Outcome()
    for subscription in subscriptions {
      guard subscription.keep != nil, let id = subscription.id else { continue }
      do {
        for episode in try beyondKeep(subscription, adding: []) {
          guard let file = episode.downloadedFile else { continue }
          if let failure = remove(file) {
            outcome.failures.append(.cannotRemove(failure))
            continue
          }
          try store.forgetPrunedFile(file, subscriptionId: id, key: episode.key)
          outcome.removed.append(file)
        }
      } catch {
        outcome.failures.append(.cannotPrune(subscription: subscription.name, LibraryError(error)))
      }
    }
    return outcome
  }

  /// The files a sync that also downloads `planned` would prune (`sync --dry-run`); nothing
  /// is deleted. `planned`: the publication dates of the episodes it would add, by subscription.
  public func wouldPrune(_ subscriptions: [Subscription], adding planned: [Int64: [Date?]])
    -> [String]
  {
    subscriptions.flatMap { subscription -> [String] in
      guard let id = subscription.id,
        let beyond = try? beyondKeep(subscription, adding: planned[id] ?? [])
      else { return [] }
      return beyond.compactMap(\.downloadedFile)
    }
  }

  /// The subscription's downloaded episodes past its `keep`, newest first, once episodes
  /// published on `incoming` dates are added (they count, but are never in the answer).
  private func beyondKeep(_ subscription: Subscription, adding incoming: [Date?]) throws
    -> [SeenEpisode]
  {
    guard let keep = subscription.keep, let id = subscription.id else { return [] }
    let downloaded = try store.seenEpisodes(subscriptionId: id).filter { $0.downloadedFile != nil }
    let dated =
      downloaded.map { (date: $0.published ?? $0.firstSeen, episode: Optional($0)) }
      + incoming.map { (date: $0 ?? Date(), episode: nil) }
    let ordered = dated.sorted { $0.date > $1.date }
    return ordered.dropFirst(max(0, keep)).compactMap(\.episode)
  }

  /// nil when the file is gone (now or already).
  private func remove(_ file: String) -> LibraryError? {
    let outcome = DownloadedFiles.delete([file], paths: store.paths)
    return outcome.failures.first
  }
}
