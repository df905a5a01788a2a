import Basics
import Foundation
internal import GRDB
import Model

/// What sync reads and writes once per run rather than once per feed.
extension LibraryStore {
  /// The library as a sync run starts: every subscription's settings, every mark, and the URLs
  /// of downloads an earlier run left unfinished, read in one snapshot.
  public struct SyncSnapshot: Sendable {
    public var settings: [Int64: SubscriptionSettings] = [:]
    public var marks: [String: EpisodeMark.State] = [:]
    /// The downloads an earlier run left unfinished, by key.
    public var unfinished: [DownloadKey: Unfinished] = [:]
    /// The keys of those downloads, by their URL (for rows no episode key finds).
    public var unfinishedURLs: [String: DownloadKey] = [:]
    /// What each kept copy of a feed was fetched with (`KeptFeeds`), by subscription.
    public var keptValidators: [Int64: KeptValidators] = [:]

    /// Where an unfinished download's row points now, and its kept `DownloadDetails`.
    public struct Unfinished: Sendable {
      public var key: DownloadKey
      public var url: String
      public var details: String?
    }

    public init() {}

    /// The unfinished download of the episode `episodeKey` of `feedURL` last linked at `url`.
    public func unfinishedDownload(feedURL: String, episodeKey: String, url: String)
      -> Unfinished?
    {
      unfinished[DownloadKey(feedURL: feedURL, episodeKey: episodeKey, url: url)]
        ?? unfinishedURLs[url].flatMap { unfinished[$0] }
    }
  }

  public func syncSnapshot() throws -> SyncSnapshot {
    var snapshot = SyncSnapshot()
    snapshot.settings = try allSettings()
    snapshot.marks = try marks()
    let waiting: [DownloadState] = [.queued, .downloading, .paused, .failed]
    try read { db in
      let rows = try Row.fetchCursor(
        db, sql: "SELECT key, url, details FROM downloads WHERE state IN (?, ?, ?, ?)",
        arguments: StatementArguments(waiting.map(\.rawValue)))
      while let row = try rows.next() {
        let key = DownloadKey(text: row[0])
        let url: String = row[1]
        snapshot.unfinished[key] = .init(key: key, url: url, details: row[2])
        snapshot.unfinishedURLs[url] = key
      }
      snapshot.keptValidators = try keptValidators(db)
    }
    return snapshot
  }

  /// Seen episodes of the subscription that have no file yet (sync's unfinished work).
  public func undownloadedEpisodes(subscriptionId: Int64) throws -> [SeenEpisode] {
    try read { db in
      try Array(
        SeenEpisodeRow.filter(
          Column("subscriptionId") == subscriptionId && Column("downloadedFile") == nil
        ).order(Column("id")).fetchCursor(db).map { $0.episode })
    }
  }

  /// The name of the subscription, other than `id`, that follows `feedURL`.
  public func subscriptionName(feedURL: String, except id: Int64) throws -> String? {
    try read { db in
      try String.fetchOne(
        db, sql: "SELECT name FROM subscriptions WHERE feedURL = ? AND id != ?",
        arguments: [feedURL, id])
    }
  }
}
