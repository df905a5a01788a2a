import Basics
import Feeds
import Foundation
internal import GRDB
import Model

/// Episode marks (`podcast mark`): what sync must skip or treat as already had.
public struct EpisodeMarks: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  /// Marks the episodes; `nil` removes their marks (`--new`). For episodes of `subscriptionId`
  /// that were seen but never downloaded, `nil` also forgets they were seen (and the feed's
  /// validators), so the next sync takes them as new, which is what "new" says.
  public func mark(
    _ episodes: [Episode], as state: EpisodeMark.State?, feedURL: String?,
    subscriptionId: Int64? = nil
  ) throws {
    try store.write { db in
      let rows = DownloadRows(store: store)
      for episode in episodes {
        let key = EpisodeMark.key(for: episode)
        if let state {
          try EpisodeMarkRow(
            EpisodeMark(key: key, state: state, feedURL: feedURL, title: episode.title)
          ).save(db)
          // Queued by `subscribe` for the first sync and not begun: sync will not take it now,
          // so `status` should not show it waiting.
          try rows.forget(
            .episode(url: episode.enclosure.url, feedURL: feedURL, key: key), as: .unstarted, db)
          continue
        }
        _ = try EpisodeMarkRow.deleteOne(db, key: key)
        guard let subscriptionId else { continue }
        let forgotten = try SeenEpisodeRow.filter(
          Column("subscriptionId") == subscriptionId && Column("key") == key
            && Column("downloadedFile") == nil
        ).deleteAll(db)
        if forgotten > 0 {
          // An unchanged feed answers 304 and would never be looked at again: drop the
          // validators so the next sync reads it and finds the episode.
          try SubscriptionRow.filter(key: subscriptionId).updateAll(
            db, Column("etag").set(to: nil), Column("lastModified").set(to: nil))
        }
      }
    }
  }

  /// Every mark, by episode key.
  public func all() throws -> [String: EpisodeMark.State] {
    try store.read { db in
      Dictionary(
        try Array(EpisodeMarkRow.fetchCursor(db).map { ($0.mark.key, $0.mark.state) }),
        uniquingKeysWith: { first, _ in first })
    }
  }
}
