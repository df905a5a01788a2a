import Basics
import Foundation
internal import GRDB
import Model

/// The episodes each subscription's feed has shown, so sync can tell what is new, and which
/// of them has its file here.
public struct EpisodeLog: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  /// Records the feed's episodes and returns those never seen before, in the given order, in one
  /// transaction. An episode counts as seen when its key is stored, or when it is a stored
  /// episode re-listed under a new GUID or URL (see `RelistedEpisodes`); such a stored row takes
  /// the new identity so it keeps its downloaded file.
  ///
  /// The transaction is a relaxed one (see `LibraryStore.relaxedWrite`): nothing here is a
  /// finished file.
  @discardableResult
  public func record(subscriptionId: Int64, episodes: [SeenEpisode]) throws -> [SeenEpisode] {
    try store.relaxedWrite { db in
      let added = try insertSeen(db, subscriptionId: subscriptionId, episodes: episodes).added
      // Their titles for `find`; no notes are known here.
      try FindIndex.record(
        FeedTexts(
          texts: episodes.map { FeedText(key: $0.key, title: $0.title, notes: nil) },
          isListing: false),
        subscriptionId: subscriptionId, db)
      return added
    }
  }

  /// The episodes `subscribe` saw, and what it chose for the first sync (see `FirstRefresh`).
  func record(_ refresh: FirstRefresh, _ db: Database, subscriptionId: Int64) throws {
    try insertSeen(db, subscriptionId: subscriptionId, episodes: refresh.episodes)
    // Found by `find` from the moment the subscription is: the same transaction.
    try FindIndex.record(
      FeedTexts(refresh.listing, isListing: true), subscriptionId: subscriptionId, db)
    // A finished one whose file is gone (`firstRefresh` found none) is fetched again, as sync
    // fetches a new episode whose old file was deleted; one unfinished already (a `download`
    // run was killed) waits for sync to resume it, gaining the details when it had none.
    let rows = DownloadRows(store: store)
    try FinishedDownloads.recordShows(of: refresh.queued, db)
    for wanted in refresh.queued { try rows.queue(wanted, db) }
  }

  /// Undoes `record(_:_:subscriptionId:)` for a subscription never synced, so its first sync reads the whole
  /// feed and decides afresh: its episodes, its downloads queued and not begun, its validators.
  func forgetFirstRefresh(_ db: Database, subscriptionId: Int64) throws {
    guard
      let feedURL = try String.fetchOne(
        db, sql: "SELECT feedURL FROM subscriptions WHERE id = ? AND lastChecked IS NULL",
        arguments: [subscriptionId])
    else { return }
    try SeenEpisodeRow.filter(Column("subscriptionId") == subscriptionId).deleteAll(db)
    try DownloadRows(store: store).forget(.feed(feedURL), as: .unstarted, db)
    try SubscriptionRow.filter(key: subscriptionId).updateAll(
      db, Column("etag").set(to: nil), Column("lastModified").set(to: nil))
  }

  /// Whether the subscription has recorded any episode (`subscribe` records what it saw).
  public func hasAny(subscriptionId: Int64) throws -> Bool {
    try store.read { db in
      let any = try db.cachedStatement(
        sql: "SELECT 1 FROM episodes WHERE subscriptionId = ? LIMIT 1")
      return try Int.fetchOne(any, arguments: [subscriptionId]) != nil
    }
  }

  /// The episodes never seen before, and whether none was stored before this call.
  @discardableResult
  private func insertSeen(_ db: Database, subscriptionId: Int64, episodes: [SeenEpisode]) throws
    -> (added: [SeenEpisode], hadNone: Bool)
  {
    // Statements prepared once per connection, as the sync's own (`record(_:)`).
    let subscription = try db.cachedStatement(sql: "SELECT 1 FROM subscriptions WHERE id = ?")
    guard try Int.fetchOne(subscription, arguments: [subscriptionId]) != nil else {
      throw LibraryError.unknownSubscription(id: subscriptionId)
    }
    let seen = try db.cachedStatement(
      sql: "SELECT \(SeenEpisodeRow.selection) FROM episodes WHERE subscriptionId = ?")
    let stored = try seen.all([.integer(subscriptionId)]) { SeenEpisodeRow($0).episode }
    let sorted = Self.classify(episodes, stored: stored)
    for previous in sorted.relisted { try SeenEpisodeRow(previous).update(db) }
    var added: [SeenEpisode] = []
    let insert = try db.cachedStatement(sql: SeenEpisodeRow.insertSQL)
    for var episode in sorted.added {
      episode.subscriptionId = subscriptionId
      try insert.run(SeenEpisodeRow(episode).values)
      episode.id = db.changesCount > 0 ? db.lastInsertedRowID : nil
      added.append(episode)
    }
    return (added, stored.isEmpty)
  }

  /// Which of `incoming` a subscription that has `stored` has never seen (`added`), and the
  /// stored rows that some of the others re-list under a new GUID or URL, with that identity
  /// taken over (`relisted`; see `RelistedEpisodes`). What `record(subscriptionId:episodes:)` writes and what
  /// `sync --dry-run` reports both come from here, so the two never disagree.
  package static func classify(_ incoming: [SeenEpisode], stored: [SeenEpisode])
    -> (added: [SeenEpisode], relisted: [SeenEpisode])
  {
    var relisting = RelistedEpisodes(stored: stored, incoming: incoming)
    var known = Set(stored.map(\.key))
    var added: [SeenEpisode] = []
    var relisted: [SeenEpisode] = []
    for episode in incoming where !known.contains(episode.key) {
      known.insert(episode.key)
      if var previous = relisting.claim(episode) {
        previous.adopt(identityOf: episode)
        relisted.append(previous)
      } else {
        added.append(episode)
      }
    }
    return (added, relisted)
  }

  /// Oldest first: the order they were first seen in.
  public func episodes(subscriptionId: Int64) throws -> [SeenEpisode] {
    try store.read { db in
      try Array(
        SeenEpisodeRow.filter(Column("subscriptionId") == subscriptionId).order(Column("id"))
          .fetchCursor(db).map { $0.episode })
    }
  }

  /// Records where the episode's file is; nil when the file was pruned.
  public func markDownloaded(subscriptionId: Int64, key: String, file: String?) throws {
    try store.write { db in
      try Self.setDownloadedFile(file, subscriptionId: subscriptionId, key: key, in: db)
    }
  }

  /// The episode's file is gone: removed by retention (`--keep`), as played
  /// (`--delete-played`) or by hand. The episode has no file any more, but its finished
  /// download stays, so listings call it deleted and neither sync nor a later look at the
  /// folder fetches it again; and with an account, the server is owed a `delete` action for
  /// it, in the same transaction, so it is told once whatever happens after.
  public func recordDeleted(subscriptionId: Int64, key: String, at time: Date = Date()) throws {
    try store.write { db in
      let row = try SeenEpisodeRow.filter(
        Column("subscriptionId") == subscriptionId && Column("key") == key
      ).fetchOne(db)
      guard let episode = row?.episode, episode.downloadedFile != nil else { return }
      try Self.setDownloadedFile(nil, subscriptionId: subscriptionId, key: key, in: db)
      // `find` lists it as `deleted`, transcript and all.
      try FindIndex.recordPruned(subscriptionId: subscriptionId, key: key, db)
      guard let url = episode.enclosureURL,
        let feedURL = try String.fetchOne(
          db, sql: "SELECT feedURL FROM subscriptions WHERE id = ?", arguments: [subscriptionId])
      else { return }
      try LibraryStore.owe(
        .delete, feedURL: feedURL, episodeURL: url, guid: episode.guid, at: time, db)
    }
  }

  private static func setDownloadedFile(
    _ file: String?, subscriptionId: Int64, key: String, in db: Database
  ) throws {
    let changed =
      try SeenEpisodeRow
      .filter(Column("subscriptionId") == subscriptionId && Column("key") == key)
      .updateAll(db, Column("downloadedFile").set(to: file))
    if changed == 0 { throw LibraryError.unknownEpisode(key: key) }
  }

  /// Every episode recorded downloaded, of every subscription, with its file: what a sync
  /// looks for on disk to notice a file removed by hand.
  public func recordedFiles() throws -> [(subscriptionId: Int64, key: String, file: String)] {
    try store.read { db in
      try Row.fetchAll(
        db,
        sql:
          "SELECT subscriptionId, key, downloadedFile FROM episodes WHERE downloadedFile IS NOT NULL"
      ).map { ($0[0], $0[1], $0[2]) }
    }
  }

  /// Seen episodes of the subscription that have no file yet (sync's unfinished work).
  public func undownloaded(subscriptionId: Int64) throws -> [SeenEpisode] {
    try store.read { db in
      try Array(
        SeenEpisodeRow.filter(
          Column("subscriptionId") == subscriptionId && Column("downloadedFile") == nil
        ).order(Column("id")).fetchCursor(db).map { $0.episode })
    }
  }

  /// The subscription's episodes as stored now, oldest first, with the version a plan made
  /// from them is written against (see `FeedRefreshes.record(_:)`).
  package func stored(subscriptionId: Int64) throws -> StoredEpisodes {
    try store.lookup { db in
      let statement = try db.cachedStatement(
        sql: "SELECT \(SeenEpisodeRow.selection) FROM episodes WHERE subscriptionId = ? ORDER BY id"
      )
      return StoredEpisodes(
        episodes: try statement.all([.integer(subscriptionId)]) { SeenEpisodeRow($0).episode })
    }
  }

  /// How many episodes each subscription has seen, by subscription id.
  public func counts() throws -> [Int64: Int] {
    try store.read { db in
      let rows = try Row.fetchAll(
        db, sql: "SELECT subscriptionId, COUNT(*) AS count FROM episodes GROUP BY subscriptionId")
      var counts: [Int64: Int] = [:]
      for row in rows {
        let id: Int64 = row["subscriptionId"]
        counts[id] = row["count"]
      }
      return counts
    }
  }
}

extension SeenEpisode {
  /// Takes a re-listed episode's current GUID, URL and title, keeping its id and file.
  package mutating func adopt(identityOf newer: SeenEpisode) {
    key = newer.key
    guid = newer.guid
    enclosureURL = newer.enclosureURL
    title = newer.title
    published = newer.published ?? published
  }
}
