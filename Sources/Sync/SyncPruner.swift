import Basics
import Foundation
import Model
import SideFiles
import Store

/// The cron job's last step: records the files removed by hand since the last run (with an
/// account, whose server hears of each), then deletes the downloaded files of episodes played
/// long enough ago (`--delete-played`), then those beyond each subscription's `keep`. Every
/// file of a subscription counts, however it came (`SubscriptionFiles`); episodes kept forever
/// (`mark --keep-forever`) never go. Each deletion is recorded like the others
/// (`EpisodeLog.recordDeleted`): the episode lists as deleted and is not fetched again.
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

  public func prune(_ subscriptions: [Subscription], now: Date = Date()) -> Outcome {
    var outcome = Outcome()
    let rules: Rules
    do {
      rules = try Rules(store: store)
    } catch {
      outcome.failures.append(.cannotPrune(subscription: "the library", LibraryError(error)))
      return outcome
    }
    recordRemovedByHand(subscriptions.filter { !rules.prunes($0) }, into: &outcome)
    for subscription in subscriptions where rules.prunes(subscription) {
      do {
        let files = try SubscriptionFiles.read(subscription, store: store)
        for key in files.removedByHand {
          try EpisodeLog(store: store).recordDeleted(
            subscriptionId: subscription.id, key: key, at: now)
        }
        for file in files.files where file.adopted {
          guard let key = file.episodeKey else { continue }
          try EpisodeLog(store: store).markDownloaded(
            subscriptionId: subscription.id, key: key, file: file.path)
        }
        for file in rules.doomed(files, of: subscription, now: now) {
          if let failure = remove(file.path) {
            outcome.failures.append(.cannotRemove(failure))
            continue
          }
          if let key = file.episodeKey {
            try EpisodeLog(store: store).recordDeleted(
              subscriptionId: subscription.id, key: key, at: now)
          }
          outcome.removed.append(file.path)
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
    guard let rules = try? Rules(store: store) else { return [] }
    return subscriptions.flatMap { subscription -> [String] in
      guard rules.prunes(subscription),
        let files = try? SubscriptionFiles.read(subscription, store: store)
      else { return [] }
      return rules.doomed(
        files, of: subscription, adding: planned[subscription.id] ?? [], now: Date()
      ).map(\.path)
    }
  }

  /// Retention as the library has it set: each subscription's `--delete-played` age, the play
  /// states, the episodes kept forever.
  private struct Rules {
    var ages: [Int64: TimeInterval] = [:]
    var states: [String: PlayState] = [:]
    var kept: Set<String> = []

    init(store: LibraryStore) throws {
      ages = try SavedSettings(store: store).all().compactMapValues(\.deletePlayedAge)
      if !ages.isEmpty { states = try PlayStates(store: store).all() }
      kept = try KeptForever(store: store).keys()
    }

    func prunes(_ subscription: Subscription) -> Bool {
      subscription.keep != nil || ages[subscription.id] != nil
    }

    /// The files to delete, played ones first, then those past `keep` of the rest (once files
    /// published on `incoming` dates are added).
    func doomed(
      _ files: SubscriptionFiles, of subscription: Subscription, adding incoming: [Date?] = [],
      now: Date
    ) -> [SubscriptionFiles.File] {
      var rest = files
      var doomed: [SubscriptionFiles.File] = []
      if let age = ages[subscription.id], !states.isEmpty {
        doomed = files.files.filter { file in
          guard !file.keys.contains(where: kept.contains),
            let playedAt = file.keys.lazy.compactMap({ states[$0] }).first(where: \.played)?
              .playedAt
          else { return false }
          return playedAt.addingTimeInterval(age) <= now
        }
        let gone = Set(doomed.map(\.path))
        rest.files.removeAll { gone.contains($0.path) }
      }
      if let keep = subscription.keep {
        doomed += rest.beyondKeep(keep, adding: incoming, kept: kept)
      }
      return doomed
    }
  }

  /// With an account, the files of `subscriptions` (those without retention, whose files
  /// `prune` reads anyway) recorded downloaded that are gone from their folder: recorded
  /// deleted, so the server hears of each once. A file whose folder is gone too is left as it
  /// is: an Episodes folder on a disk that is not mounted is not a deletion of everything on
  /// it.
  private func recordRemovedByHand(_ subscriptions: [Subscription], into outcome: inout Outcome) {
    let ids = Set(subscriptions.map(\.id))
    let log = EpisodeLog(store: store)
    do {
      guard try AccountState(store: store).record() != nil else { return }
      for recorded in try log.recordedFiles() where ids.contains(recorded.subscriptionId) {
        let folder = (recorded.file as NSString).deletingLastPathComponent
        guard !FileManager.default.fileExists(atPath: recorded.file),
          FileManager.default.fileExists(atPath: folder)
        else { continue }
        try log.recordDeleted(subscriptionId: recorded.subscriptionId, key: recorded.key)
      }
    } catch {
      outcome.failures.append(
        .cannotPrune(subscription: "files removed by hand", LibraryError(error)))
    }
  }

  /// nil when the file is gone (now or already).
  private func remove(_ file: String) -> LibraryError? {
    let outcome = DownloadedFiles.delete([file], paths: store.paths)
    return outcome.failures.first
  }
}
