import Basics
import Foundation
import Model
import SideFiles
import Store

/// The cron job's last step: deletes the downloaded files of episodes played long enough ago
/// (`--delete-played`), then those beyond each subscription's `keep`. Episodes are recorded the
/// moment they land (by the downloader), so this also prunes what a killed or interrupted
/// earlier run finished.
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

  public func prune(_ subscriptions: [Subscription], now: Date = Date()) -> Outcome {
    var outcome = Outcome()
    prunePlayed(subscriptions, now: now, into: &outcome)
    for subscription in subscriptions {
      guard subscription.keep != nil else { continue }
      do {
        for episode in try beyondKeep(subscription, adding: []) {
          guard let file = episode.downloadedFile else { continue }
          if let failure = remove(file) {
            outcome.failures.append(.cannotRemove(failure))
            continue
          }
          try EpisodeLog(store: store).forgetPrunedFile(
            file, subscriptionId: subscription.id, key: episode.key)
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
    let played = Set((try? playedLongAgo(subscriptions, now: Date()))?.map(\.file) ?? [])
    return played.sorted()
      + subscriptions.flatMap { subscription -> [String] in
        guard let beyond = try? beyondKeep(subscription, adding: planned[subscription.id] ?? [])
        else { return [] }
        return beyond.compactMap(\.downloadedFile).filter { !played.contains($0) }
      }
  }

  /// Deletes the files `playedLongAgo` finds: each episode keeps its finished download, so it
  /// is listed as deleted and never fetched again.
  private func prunePlayed(_ subscriptions: [Subscription], now: Date, into outcome: inout Outcome)
  {
    let episodes: [(file: String, subscriptionId: Int64, key: String)]
    do {
      episodes = try playedLongAgo(subscriptions, now: now)
    } catch {
      outcome.failures.append(.cannotPrune(subscription: "played episodes", LibraryError(error)))
      return
    }
    for episode in episodes {
      if let failure = remove(episode.file) {
        outcome.failures.append(.cannotRemove(failure))
        continue
      }
      do {
        try store.forgetPlayedFile(subscriptionId: episode.subscriptionId, key: episode.key)
        outcome.removed.append(episode.file)
      } catch {
        outcome.failures.append(.cannotRemove(LibraryError(error)))
      }
    }
  }

  /// The downloaded episodes of subscriptions with `--delete-played AGE` that were played (on
  /// any device) at least AGE before `now`.
  private func playedLongAgo(_ subscriptions: [Subscription], now: Date) throws
    -> [(file: String, subscriptionId: Int64, key: String)]
  {
    let settings = try SavedSettings(store: store).all()
    let ages = subscriptions.compactMap { subscription -> (Int64, TimeInterval)? in
      settings[subscription.id]?.deletePlayedAge.map { (subscription.id, $0) }
    }
    guard !ages.isEmpty else { return [] }
    let states = try store.playStates()
    guard !states.isEmpty else { return [] }
    return try ages.flatMap { id, age in
      try EpisodeLog(store: store).episodes(subscriptionId: id).compactMap { episode in
        guard let file = episode.downloadedFile,
          let playedAt = episode.identityKeys.lazy.compactMap({ states[$0] })
            .first(where: \.played)?.playedAt,
          playedAt.addingTimeInterval(age) <= now
        else { return nil }
        return (file, id, episode.key)
      }
    }
  }

  /// The subscription's downloaded episodes past its `keep`, newest first, once episodes
  /// published on `incoming` dates are added (they count, but are never in the answer).
  private func beyondKeep(_ subscription: Subscription, adding incoming: [Date?]) throws
    -> [SeenEpisode]
  {
    guard let keep = subscription.keep else { return [] }
    let downloaded = try EpisodeLog(store: store).episodes(subscriptionId: subscription.id).filter {
      $0.downloadedFile != nil
    }
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
