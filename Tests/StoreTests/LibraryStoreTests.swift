import Basics
import Foundation
import GRDB
import Model
import StoreTestSupport
import XCTest

@testable import Store

final class LibraryStoreTests: XCTestCase {
  func testFreshDatabaseIsMigratedAndInWALMode() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    for directory in [library.paths.episodes, library.paths.partials] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: directory))
    }
    try store.read { db in
      XCTAssertEqual(
        try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"),
        [
          "v1", "v10-owners-and-checkpoints", "v11-feed-shows", "v12-account-follows",
          "v13-kept-forever", "v14-find-index", "v2-downloads", "v2-settings",
          "v3-indexes",
          "v4-published", "v5-download-details", "v6-download-keys", "v7-download-archive",
          "v8-account", "v9-kept-feeds", "v9-update-index-dropped",
        ])
      XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA journal_mode"), "wal")
      for table in [
        "subscriptions", "episodes", "downloads", "subscriptionSettings", "episodeMarks",
        "keptFeeds", "feedShows", "findText", "findSources", "findState", "findFeeds",
      ] {
        XCTAssertTrue(try db.tableExists(table), table)
      }
    }
    XCTAssertEqual(LibraryStore.schemaVersion, 16)
    // Reopening an up-to-date library changes nothing and keeps the data.
    try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/feed", title: nil, keep: nil)
    XCTAssertEqual(try Subscriptions(store: library.store()).all().map(\.name), ["one"])
  }

  /// A download recorded done must outlive a power cut before its partial file is removed:
  /// `write` commits at FULL (the WAL synced), sync's per-feed bookkeeping at NORMAL, and
  /// neither leaves its level behind for the next write. GRDB's pool alone is at NORMAL,
  /// where no commit is synced.
  func testDurableWritesCommitAtFullAndRelaxedOnesAtNormal() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    let level = "PRAGMA synchronous"
    for _ in 0..<2 {
      XCTAssertEqual(try store.write { db in try Int.fetchOne(db, sql: level) }, 2)
      XCTAssertEqual(try store.relaxedWrite { db in try Int.fetchOne(db, sql: level) }, 1)
    }
  }

  /// The hot statements bind their texts from one buffer (`Statement.run`): each text must
  /// arrive whole and apart from its neighbours, an empty one as empty (not NULL), beside
  /// numbers, NULLs and blobs, and a statement run again must not see the last run's texts.
  /// A NUL ends a text, as it does in GRDB's own binding, so both write the same keys.
  func testHotStatementsBindEachTextAsItIs() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    let texts = ["", "caf\u{E9} \u{1F399}", "a\u{0}b", String(repeating: "x", count: 70_000), "z"]
    try store.write { db in
      try db.execute(sql: "CREATE TEMP TABLE bound (a, b, c, d, e, f, g)")
      let insert = try db.cachedStatement(sql: "INSERT INTO bound VALUES (?, ?, ?, ?, ?, ?, ?)")
      try insert.run(
        [
          .text(texts[0]), .integer(7), .text(texts[1]), .null, .text(texts[2]), .text(texts[3]),
          .blob(Data([0, 1, 2])),
        ])
      try insert.run([.text(texts[4]), .null, .null, .null, .null, .null, .null])
      let rows = try db.cachedStatement(
        sql: "SELECT a, typeof(a), b, c, d, e, f, g FROM bound ORDER BY rowid"
      ).all([]) { row in
        [
          row.text(0), row.text(1), row.integer(2).map(String.init), row.text(3), row.text(4),
          row.text(5), row.text(6).map { String($0.count) }, row.blob(7).map { "\(Array($0))" },
        ]
      }
      XCTAssertEqual(rows.count, 2)
      XCTAssertEqual(
        rows.first.map { $0.map { $0.map { Array($0.utf8) } } },
        ["", "text", "7", texts[1], nil, "a", "70000", "[0, 1, 2]"].map {
          $0.map { Array($0.utf8) }
        })
      XCTAssertEqual(rows.last, ["z", "text", nil, nil, nil, nil, nil, nil])
    }
  }

  func testDatabaseFromANewerVersionIsRefusedAndLeftUnchanged() throws {
    let library = try TemporaryLibrary()
    try Subscriptions(store: library.store()).add(
      name: "kept", feedURL: "https://a.example/feed", title: nil, keep: nil)
    let queue = try DatabaseQueue(path: library.paths.database)
    try queue.write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')")
      try db.execute(sql: "CREATE TABLE future (x)")
    }
    try queue.close()
    let before = try schemaAndRows(library.paths.database)

    XCTAssertThrowsError(try library.store()) { error in
      XCTAssertEqual(error as? LibraryError, .newerLibrary(path: library.paths.root))
      XCTAssertTrue("\(error)".contains("was written by a newer podcast"))
    }
    XCTAssertEqual(try schemaAndRows(library.paths.database), before)
  }

  func testCorruptDatabaseIsAClearError() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: library.paths.database))
    XCTAssertThrowsError(try library.store()) { error in
      XCTAssertTrue("\(error)".contains(library.paths.database), "\(error)")
    }
  }

  func testTwoStoresOnOneFileWriteAtTheSameTime() throws {
    let library = try TemporaryLibrary()
    let first = try library.store()
    let second = try library.store()
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      let store = worker == 0 ? first : second
      for index in 0..<100 {
        let url = "https://cdn.example/\(worker)/\(index).mp3"
        do {
          let wanted = QueuedDownload(url: url, podcastTitle: "S", episodeTitle: "E")
          let key = try DownloadRows(store: store).queue([wanted])[0]
          try DownloadRows(store: store).transition(
            key, .begin(wanted, owner: .current, bytesOnDisk: 0))
          try DownloadRows(store: store).transition(
            key, .progress(DownloadProgress(bytes: Int64(index))))
        } catch {
          failures.append("\(error)")
        }
      }
    }
    XCTAssertEqual(failures.all, [])
    XCTAssertEqual(try DownloadRows(store: first).all().count, 200)
  }

  private func schemaAndRows(_ path: String) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      try String.fetchAll(
        db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
        + String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        + String.fetchAll(db, sql: "SELECT name FROM subscriptions")
    }
  }
}

/// Errors collected from concurrent workers.
final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func append(_ item: String) { lock.withLock { items.append(item) } }
  var all: [String] { lock.withLock { items } }
}
