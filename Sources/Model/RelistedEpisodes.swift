import Basics

/// Finds stored episodes that a feed now lists under a different GUID or URL.
///
/// A fresh item whose key is unknown is the stored episode S when one of its `identityKeys`
/// (say its URL key) is also one of S's, and three guards hold, because stripped query strings
/// can make one URL key stand for many episodes (`download.php?id=1`, `?id=2`):
/// - the shared key belongs to exactly one stored episode and exactly one fresh item;
/// - S's own key is no longer in the feed (the old listing really went away);
/// - S has not already been claimed by another fresh item in this refresh.
package struct RelistedEpisodes {
  private var storedByKey: [String: SeenEpisode] = [:]
  private var incomingKeyCounts: [String: Int] = [:]
  private var incomingPrimaryKeys: Set<String> = []
  private var claimed: Set<Int64> = []

  package init(stored: [SeenEpisode], incoming: [SeenEpisode]) {
    // Nothing stored, nothing to re-list: a first sync skips working out every fresh item's
    // identity keys, a visible part of its work.
    guard !stored.isEmpty else { return }
    var storedCounts: [String: Int] = [:]
    for episode in stored {
      for key in episode.identityKeys {
        storedCounts[key, default: 0] += 1
        storedByKey[key] = episode
      }
    }
    storedByKey = storedByKey.filter { storedCounts[$0.key] == 1 }
    for episode in incoming {
      for key in Set(episode.identityKeys + [episode.key]) {
        incomingKeyCounts[key, default: 0] += 1
      }
    }
    incomingPrimaryKeys = Set(incoming.map(\.key))
  }

  /// The stored episode `episode` re-lists, if any; each stored episode is returned at most once.
  package mutating func claim(_ episode: SeenEpisode) -> SeenEpisode? {
    guard !storedByKey.isEmpty else { return nil }
    for key in episode.identityKeys where incomingKeyCounts[key] == 1 {
      guard let stored = storedByKey[key], let id = stored.id, !claimed.contains(id),
        !incomingPrimaryKeys.contains(stored.key)
      else { continue }
      claimed.insert(id)
      return stored
    }
    return nil
  }
}
