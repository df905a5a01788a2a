import Basics
import Foundation
internal import GRDB
import Model

#if canImport(Glibc)
  import Glibc
#endif

/// Where the library keeps the last copy of each subscription's feed (`KeptFeed`): a row of
/// the `keptFeeds` table per subscription, its copy as one blob (compressed), with the
/// validators it came with beside it and when it was written. The row goes with its
/// subscription. When the copy was last known to be the feed as served is the later of that
/// and the subscription's own `lastChecked` while the subscription still has the copy's
/// address and validators: a sync asks conditionally only with the copy's validators, so a
/// check that kept them was a 304 for this copy (or a fetch of the same document). A 304 so
/// writes only its subscription's row, and the copy (a row of several kB) is not rewritten by
/// every hourly run.
///
/// In the database rather than a file per feed: sync writes a feed's copy in the transaction
/// that records its refresh (`FeedRecord`), where a file costs an inode, a rename and, on ext4
/// without a journal just after many deletions, a search past each of them; and a sync
/// reads every copy's validators in one query (`FeedRefreshes.Snapshot.keptValidators`). A listing
/// still only reads: it opens the library read-only.
public struct KeptFeeds: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  /// The copy kept for the subscription and when it was last known current; nil when none is
  /// kept. Throws `KeptFeedError.damaged` when its bytes do not read back whole.
  public func copy(subscriptionId: Int64) throws -> (feed: KeptFeed, checked: Date)? {
    guard let (data, checked) = try store.keptCopy(subscriptionId: subscriptionId) else {
      return nil
    }
    return (try KeptFeed(decoding: data), checked)
  }

  /// Keeps `feed` as the subscription's copy, replacing the one before.
  public func keep(_ feed: KeptFeed, subscriptionId: Int64) throws {
    try store.relaxedWrite { db in try LibraryStore.keep(feed, subscriptionId: subscriptionId, db) }
  }
}

extension LibraryStore {
  /// The validators of the copy kept for a subscription, and the feed address it was kept
  /// for: what a conditional request may send, as a 304 then still leaves the document at hand.
  public struct KeptValidators: Sendable, Equatable {
    public var feedURL: String
    public var validators: Validators
  }

  /// A subscription's kept copy as stored, and when it was last known current. Of a library
  /// that a write has not opened since its copies were files (`.podcast/feeds/<id>.feed`), the
  /// file: a listing opens the library read-only and cannot move them in.
  func keptCopy(subscriptionId: Int64) throws -> (Data, Date)? {
    do {
      let row = try lookup { db in
        try Row.fetchOne(
          db.cachedStatement(
            sql: """
              SELECT k.copy, k.checked,
                CASE WHEN s.feedURL = k.feedURL AND s.etag IS k.etag
                  AND s.lastModified IS k.lastModified
                  AND (k.etag IS NOT NULL OR k.lastModified IS NOT NULL)
                THEN s.lastChecked END
              FROM keptFeeds k LEFT JOIN subscriptions s ON s.id = k.subscriptionId
              WHERE k.subscriptionId = ?
              """),
          arguments: [subscriptionId])
      }
      return row.map { row in
        let written: Date = row[1]
        let confirmed: Date? = row[2]
        return (row[0], max(written, confirmed ?? written))
      }
    } catch LibraryError.databaseFailed where !hasKeptFeedsTable() {
      return try keptFile(subscriptionId: subscriptionId)
    }
  }

  private func hasKeptFeedsTable() -> Bool {
    (try? read { db in try db.tableExists("keptFeeds") }) == true
  }

  static func keep(_ feed: KeptFeed, subscriptionId: Int64, checked: Date = Date(), _ db: Database)
    throws
  {
    try db.cachedStatement(
      sql: """
        INSERT OR REPLACE INTO keptFeeds (subscriptionId, feedURL, etag, lastModified, checked, copy)
        VALUES (?, ?, ?, ?, ?, ?)
        """
    ).run([
      .integer(subscriptionId), .text(feed.feedURL), SQLValue(feed.validators.etag),
      SQLValue(feed.validators.lastModified), SQLValue(checked), .blob(feed.encoded()),
    ])
  }

  /// Every kept copy's validators, by subscription.
  func keptValidators(_ db: Database) throws -> [Int64: KeptValidators] {
    var found: [Int64: KeptValidators] = [:]
    let rows = try Row.fetchCursor(
      db, sql: "SELECT subscriptionId, feedURL, etag, lastModified FROM keptFeeds")
    while let row = try rows.next() {
      found[row[0]] = KeptValidators(
        feedURL: row[1], validators: Validators(etag: row[2], lastModified: row[3]))
    }
    return found
  }

  // MARK: - The files of earlier versions

  /// The copy earlier versions kept as a file, and the file's modification time.
  private func keptFile(subscriptionId: Int64) throws -> (Data, Date)? {
    let path = paths.keptFeeds + "/\(subscriptionId).feed"
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch CocoaError.fileReadNoSuchFile {
      return nil
    } catch {
      throw KeptFeedError.unreadable(path: path, reason: error.localizedDescription)
    }
    var info = stat()
    let modified =
      stat(path, &info) == 0
      ? Date(
        timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)
          + TimeInterval(info.st_mtim.tv_nsec) / 1e9) : Date()
    return (data, modified)
  }

  /// Moves the copies earlier versions kept as files into the database, each with its file's
  /// time, and removes the files and their folder. A file that does not read back whole, or
  /// whose subscription is gone, is only removed: the next sync fetches that feed whole.
  func moveKeptFiles() throws {
    let folder = paths.keptFeeds
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      return
    }
    try relaxedWrite { db in
      let subscriptions = Set(try Int64.fetchAll(db, sql: "SELECT id FROM subscriptions"))
      for name in names where name.hasSuffix(".feed") {
        guard let id = Int64(name.dropLast(5)), subscriptions.contains(id),
          let (data, checked) = try? keptFile(subscriptionId: id),
          let feed = try? KeptFeed(decoding: data)
        else { continue }
        try Self.keep(feed, subscriptionId: id, checked: checked, db)
      }
    }
    for name in names { unlink(folder + "/" + name) }
    rmdir(folder)
  }
}
