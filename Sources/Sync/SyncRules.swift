import Basics
import Feeds
import Foundation
import Model
import Selection

/// What one subscription's sync takes from its feed: the run's filter and the subscription's
/// own (an episode must pass both), its marks, its name template and its first-sync policy.
package struct SyncRules: Sendable {
  package let predicates: [EpisodePredicate]
  package let marks: [String: EpisodeMark.State]
  package let namer: FileNamer
  /// How many episodes the first sync takes; nil is all.
  package let firstCount: Int?
  /// Whether this subscription's downloads keep what the feed says of their episodes, for the
  /// folder's `feed.xml` or page (its `--write-feed` or `--write-page`, or the run's).
  package var writesFeed: Bool
  /// Whether this subscription's downloads get `<episode>.info.json` beside them (its
  /// `--info-json`, or the run's).
  package var writesInfo: Bool
  /// Whether a paged feed's later pages are read (false after `set NAME --no-pages`).
  package let readsPages: Bool

  package init(
    runFilter: EpisodePredicate?, settings: SubscriptionSettings,
    marks: [String: EpisodeMark.State], defaultNamer: FileNamer, now: Date = Date(),
    runWritesFeed: Bool = false, runWritesInfo: Bool = false
  ) throws {
    writesFeed = runWritesFeed || settings.feed == true || settings.page == true
    writesInfo = runWritesInfo || settings.info == true
    predicates = [runFilter, try settings.filter.predicate(now: now)].compactMap { $0 }
    self.marks = marks
    namer = try settings.nameTemplate.map { try FileNamer(template: $0) } ?? defaultNamer
    firstCount = (settings.first ?? .latest).count
    readsPages = settings.pages != false
  }

  /// A new episode sync should fetch: unmarked, and passing every filter.
  package func wants(_ episode: Episode, key: String) -> Bool {
    marks[key] == nil && passes(episode)
  }

  package func passes(_ episode: Episode) -> Bool {
    predicates.allSatisfy { $0.accepts(episode) }
  }

  /// The offsets in `episodes` (newest first) of those sync takes: never seen before (`keys[i]`
  /// in `added`) and wanted; on a subscription's first refresh only those among the newest
  /// `firstCount` wanted episodes of the whole feed. Sync and subscribe both decide with this,
  /// so subscribing then syncing takes what a first sync alone would; and a first sync that
  /// could not read every page of a paged feed, finished by the next run, takes what it would
  /// have taken in one go (the episodes it already chose count, and are not chosen again).
  package func selection(
    of episodes: [Episode], keys: [String], added: Set<String>, firstRefresh: Bool
  ) -> [Int] {
    var chosen: [Int] = []
    var counted = 0
    for (offset, episode) in episodes.enumerated() {
      let isAdded = added.contains(keys[offset])
      guard isAdded || firstRefresh, wants(episode, key: keys[offset]) else { continue }
      if firstRefresh, let firstCount, counted >= firstCount { break }
      counted += 1
      if isAdded { chosen.append(offset) }
    }
    return chosen
  }
}
