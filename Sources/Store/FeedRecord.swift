import Foundation
import Model

/// What one feed's refresh changes in the library, written in one transaction
/// (`FeedRefreshes.record(_:)`): the subscription as the run found it (its feed URL after a
/// move, title, when it was checked, validators, last error), the episodes seen for the first
/// time or re-listed, and the downloads planned from them, queued. The plan was made outside
/// the transaction from the episodes stored then (`planned`); the write checks they are still
/// what is stored, and otherwise changes nothing and answers `stale`, for the planner to read
/// and plan again.
package struct FeedRecord: Sendable {
  package var subscription: Subscription
  /// The subscription as the run found it: only what differs from it is written (a 304
  /// changes when it was checked and nothing else).
  package var previous: Subscription?
  /// The stored episodes the plan was made from; nil when the feed's episodes were not read
  /// (a 304, a failure): then only the subscription is written.
  package var planned: StoredEpisodes.Version?
  /// Episodes never seen before, in the feed's order.
  package var added: [SeenEpisode] = []
  /// Stored episodes the feed now lists under a new identity (see `RelistedEpisodes`), their
  /// new identity adopted.
  package var relisted: [SeenEpisode] = []
  /// The downloads planned, each queued in the row its episode has already if it has one.
  package var queued: [QueuedDownload] = []
  /// The feed as fetched now, to keep as the subscription's copy (`KeptFeeds`).
  package var copy: KeptFeed?
  /// What the feed says of its episodes, for the full-text index (`FindIndex.record`); nil
  /// when the feed was not read (a 304, a failure).
  package var texts: FeedTexts?

  package init(
    subscription: Subscription, previous: Subscription? = nil,
    planned: StoredEpisodes.Version? = nil
  ) {
    self.subscription = subscription
    self.previous = previous
    self.planned = planned
  }

  package enum Outcome: Sendable, Equatable {
    /// Written. `keys`: the row each of `queued` is queued under, in order; `alreadyHad`: the
    /// URLs of those the library already has a finished file of.
    case recorded(keys: [DownloadKey], alreadyHad: Set<String>)
    /// The stored episodes changed since the plan was made (another process wrote them):
    /// nothing was written.
    case stale
    /// The subscription cannot take this record (removed meanwhile, or moved onto a feed
    /// another subscription follows): nothing was written.
    case refused(LibraryError)
    /// Writing it failed (the error says why): nothing of it was written.
    case failed(LibraryError)
  }
}

/// A subscription's episodes as stored when a sync read them, with what tells whether they
/// are still all there when a plan made from them is written.
package struct StoredEpisodes: Sendable {
  package var episodes: [SeenEpisode]
  package var version: Version

  /// How many there were and the newest row's id: only sync (one at a time) re-lists stored
  /// episodes, and ids are never reused, so a row added or removed by anyone else changes one
  /// of the two.
  package struct Version: Sendable, Equatable {
    package var count: Int
    package var newestId: Int64?

    package init(count: Int, newestId: Int64?) {
      self.count = count
      self.newestId = newestId
    }
  }

  package init(episodes: [SeenEpisode]) {
    self.episodes = episodes
    version = Version(count: episodes.count, newestId: episodes.compactMap(\.id).max())
  }
}
