import Basics
import Foundation
internal import GRDB
import Model

/// What a sync reads of the library once per run, before it plans (`Snapshot`), and writes
/// once per feed, after (`FeedRecord`).
public struct FeedRefreshes: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  /// The library as a sync run starts: every subscription's settings, every mark, and the URLs
  /// of downloads an earlier run left unfinished, read in one snapshot.
  public struct Snapshot: Sendable {
    public var settings: [Int64: SubscriptionSettings] = [:]
    public var marks: [String: EpisodeMark.State] = [:]
    /// The downloads an earlier run left unfinished, by key.
    public var unfinished: [DownloadKey: Unfinished] = [:]
    /// The keys of those downloads, by their URL (for rows no episode key finds).
    public var unfinishedURLs: [String: DownloadKey] = [:]
    /// What each kept copy of a feed was fetched with (`KeptFeeds`), by subscription.
    public var keptValidators: [Int64: LibraryStore.KeptValidators] = [:]
    /// The subscriptions that may have one of `unfinished` among their stored episodes: those
    /// whose feed a waiting download's key names, and those with an episode not downloaded
    /// whose link a waiting download has. Only their episodes are read after a 304: one failed
    /// download must not cost every unchanged feed a read of its episodes.
    public var unfinishedSubscriptions: Set<Int64> = []

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

  public func snapshot() throws -> Snapshot {
    var snapshot = Snapshot()
    snapshot.settings = try SavedSettings(store: store).all()
    snapshot.marks = try EpisodeMarks(store: store).all()
    let waiting: [DownloadState] = [.queued, .downloading, .paused, .failed]
    try store.read { db in
      let rows = try Row.fetchCursor(
        db, sql: "SELECT key, url, details FROM downloads WHERE state IN (?, ?, ?, ?)",
        arguments: StatementArguments(waiting.map(\.rawValue)))
      while let row = try rows.next() {
        let key = DownloadKey(text: row[0])
        let url: String = row[1]
        snapshot.unfinished[key] = .init(key: key, url: url, details: row[2])
        snapshot.unfinishedURLs[url] = key
      }
      snapshot.keptValidators = try store.keptValidators(db)
      if !snapshot.unfinished.isEmpty {
        snapshot.unfinishedSubscriptions = try Self.unfinishedSubscriptions(db, waiting: waiting)
      }
    }
    return snapshot
  }

  /// See `Snapshot.unfinishedSubscriptions`: one statement, whatever the number of feeds. A
  /// download's key is its feed and episode key on two lines, else its URL (`DownloadKey`).
  private static func unfinishedSubscriptions(_ db: Database, waiting: [DownloadState]) throws
    -> Set<Int64>
  {
    let states = waiting.map(\.rawValue)
    return Set(
      try Int64.fetchAll(
        db,
        sql: """
          WITH waiting AS (SELECT key, url FROM downloads WHERE state IN (?, ?, ?, ?))
          SELECT id FROM subscriptions WHERE feedURL IN (
            SELECT substr(key, 1, instr(key, char(10)) - 1) FROM waiting
            WHERE instr(key, char(10)) > 0)
          UNION
          SELECT subscriptionId FROM episodes
          WHERE downloadedFile IS NULL AND enclosureURL IN (SELECT url FROM waiting)
          """,
        arguments: StatementArguments(states)))
  }

  /// Writes each feed's record, all in one relaxed transaction (see
  /// `LibraryStore.relaxedWrite`: nothing here is a finished file) and each in a savepoint of
  /// its own, so one that is stale, refused or fails leaves the others written. An answer for
  /// each, in order; throws when the transaction itself fails, and then none is written.
  ///
  /// The find index's rows of every recorded feed go in last, together: FTS5 writes the text
  /// it holds to disk as a new segment at every savepoint (and at every statement that may
  /// have to be undone), so indexed feed by feed between the others' savepoints each feed
  /// became a segment of its own, merged again and again, about a tenth of a first sync's
  /// CPU. Should that last step fail, it is undone and the round written again the slow way,
  /// each feed's texts in its savepoint, so only the feed whose texts fail is refused, as
  /// before.
  ///
  /// Each feed's savepoint is only there to undo that feed: so the round is first written with
  /// none, and written again the slow way should a feed not be recorded (stale, refused or
  /// failed, all rare). A savepoint and its release per feed were two of the round's
  /// statements in every ten.
  package func record(_ records: [FeedRecord]) throws -> [FeedRecord.Outcome] {
    try store.relaxedWrite { db in
      do {
        return try db.savepoint {
          let outcomes = try records.map { try recordedAsAll($0, db) }
          let keeping = try FindIndex.keeping(db)
          for (record, outcome) in zip(records, outcomes) {
            guard case .recorded = outcome, let texts = record.texts else { continue }
            try FindIndex.record(
              texts, subscriptionId: record.subscription.id, keeping: keeping, db)
          }
          return (outcomes, true)
        }
      } catch {
        return try records.map { try record($0, indexing: true, db) }
      }
    }
  }

  /// One feed's record in the round's first way (`record(_:)`): no savepoint of its own, so
  /// anything but `recorded` throws, undoing the whole round to be written again the slow way.
  private func recordedAsAll(_ record: FeedRecord, _ db: Database) throws -> FeedRecord.Outcome {
    let outcome = try write(record, indexing: false, db)
    guard case .recorded = outcome else { throw NotAllRecorded() }
    return outcome
  }

  /// Why a round's first way gave up: one of its feeds was not recorded.
  private struct NotAllRecorded: Error {}

  /// One feed's record in a savepoint of its own (a subscription's row alone needs none),
  /// with its find index rows when `indexing`.
  private func record(_ record: FeedRecord, indexing: Bool, _ db: Database) throws
    -> FeedRecord.Outcome
  {
    // A record of the subscription alone (a 304, a failure) is one statement and needs no
    // savepoint: a refusal changes nothing. A 304 leaves the kept copy as it is: its
    // `lastChecked` is what confirms the copy (`KeptFeeds`).
    guard record.planned != nil || record.copy != nil else {
      do {
        return try write(record, indexing: indexing, db)
      } catch {
        return .failed(LibraryError(error))
      }
    }
    return try db.savepoint {
      let outcome: FeedRecord.Outcome
      do {
        outcome = try write(record, indexing: indexing, db)
      } catch {
        outcome = .failed(LibraryError(error))
      }
      if case .recorded = outcome { return (outcome, true) }
      return (outcome, false)
    }
  }

  private static let checkedSQL =
    "UPDATE subscriptions SET lastChecked = ?, lastError = ? WHERE id = ?"

  private func write(_ record: FeedRecord, indexing: Bool, _ db: Database) throws
    -> FeedRecord.Outcome
  {
    let subscription = record.subscription
    let id = subscription.id
    // What the run learned, and only that: when it was checked and how, always; the rest
    // when it changed (a rewritten feed URL is an index entry rewritten).
    let previous = record.previous
    var changes: [(column: String, value: SQLValue)] = [
      ("lastChecked", SQLValue(subscription.lastChecked)),
      ("lastError", SQLValue(subscription.lastError)),
    ]
    if previous?.feedURL != subscription.feedURL {
      changes.append(("feedURL", .text(subscription.feedURL)))
    }
    if previous?.title != subscription.title {
      changes.append(("title", SQLValue(subscription.title)))
    }
    if previous?.etag != subscription.etag { changes.append(("etag", SQLValue(subscription.etag))) }
    if previous?.lastModified != subscription.lastModified {
      changes.append(("lastModified", SQLValue(subscription.lastModified)))
    }
    // A check that changed nothing else (every 304) needs no SQL of its own made.
    let update = try db.cachedStatement(
      sql: changes.count == 2
        ? Self.checkedSQL
        : "UPDATE subscriptions SET \(changes.map { "\($0.column) = ?" }.joined(separator: ", ")) WHERE id = ?"
    )
    do {
      try update.run(changes.map(\.value) + [.integer(id)])
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
      // Moved onto a feed another subscription follows (feed URLs are unique).
      let other = try String.fetchOne(
        db.cachedStatement(sql: "SELECT name FROM subscriptions WHERE feedURL = ? AND id != ?"),
        arguments: [subscription.feedURL, id])
      return .refused(.duplicateFeed(url: subscription.feedURL, name: other ?? ""))
    }
    if db.changesCount == 0 { return .refused(.unknownSubscription(id: id)) }
    if let copy = record.copy { try LibraryStore.keep(copy, subscriptionId: id, db) }
    guard let planned = record.planned else { return .recorded(keys: [], alreadyHad: []) }
    let stored = try db.cachedStatement(
      sql: "SELECT count(*), max(id) FROM episodes WHERE subscriptionId = ?"
    ).first([.integer(id)]) {
      StoredEpisodes.Version(count: Int($0.integer(0) ?? 0), newestId: $0.integer(1))
    }
    guard stored == planned else { return .stale }
    for previous in record.relisted { try SeenEpisodeRow(previous).update(db) }
    let insert = try db.cachedStatement(sql: SeenEpisodeRow.insertSQL)
    for var episode in record.added {
      episode.subscriptionId = id
      try insert.run(SeenEpisodeRow(episode).values)
    }
    // Found by `find` from the moment they are recorded: the same transaction (`record(_:)`).
    if indexing, let texts = record.texts { try FindIndex.record(texts, subscriptionId: id, db) }
    var alreadyHad: Set<String> = []
    var keys: [DownloadKey] = []
    let rows = DownloadRows(store: store)
    try FinishedDownloads.recordShows(of: record.queued, db)
    for wanted in record.queued {
      let known = try DownloadRows.known(db, wanted)
      if known.finished != nil { alreadyHad.insert(wanted.url) }
      keys.append(try rows.queue(wanted, in: known.row, db))
    }
    return .recorded(keys: keys, alreadyHad: alreadyHad)
  }
}
