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
          "v1", "v10-owners-and-checkpoints", "v11-account-follows", "v2-downloads", "v2-settings",
          "v3-indexes",
          "v4-published", "v5-download-details", "v6-download-keys", "v7-download-archive",
          "v8-account", "v9-kept-feeds", "v9-update-index-dropped",
        ])
      XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA journal_mode"), "wal")
      for table in [
        "subscriptions", "episodes", "downloads", "subscriptionSettings", "episodeMarks",
        "keptFeeds",
      ] {
        XCTAssertTrue(try db.tableExists(table), table)
      }
    }
    XCTAssertEqual(LibraryStore.schemaVersion, 13)
    // Reopening an up-to-date library changes nothing and keeps the data.
    try store.addSubscription(name: "one", feedURL: "https://a.example/feed", title: nil, keep: nil)
    XCTAssertEqual(try library.store().subscriptions().map(\.name), ["one"])
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

  func testDatabaseFromANewerVersionIsRefusedAndLeftUnchanged() throws {
    let library = try TemporaryLibrary()
    try library.store().addSubscription(
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

  func testDownloadRoundTripAndStateChanges() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    let url = "https://cdn.example/a.mp3"
    var wanted = QueuedDownload(
      url: url, podcastTitle: "Show", episodeTitle: "Ep 1", feedURL: "https://cdn.example/f",
      identityKeys: ["guid:1"], owner: .current)
    let key = try XCTUnwrap(store.queueDownloads([wanted]).first)
    XCTAssertEqual(
      key, DownloadKey(feedURL: "https://cdn.example/f", episodeKey: "guid:1", url: url))
    XCTAssertEqual(try store.download(url: url)?.episodeTitle, "Ep 1")
    XCTAssertEqual(try store.download(url: url)?.owner, .current)

    wanted.episodeTitle = "Ep 1 (renamed)"
    XCTAssertEqual(try store.queueDownloads([wanted]), [key])
    XCTAssertEqual(try store.allDownloads().count, 1, "queueing again keeps the one row")

    // The changes a running download makes (DownloadRow).
    try store.transition(key, .begin(wanted, owner: .current, bytesOnDisk: 0))
    try store.transition(
      key,
      .progress(
        DownloadProgress(
          bytes: 500,
          head: DownloadProgress.Head(validators: Validators(etag: "\"v1\""), total: 1000))))
    let running = try XCTUnwrap(store.download(url: url))
    XCTAssertEqual(running.state, .downloading)
    XCTAssertEqual(running.progress, 0.5)
    XCTAssertEqual(running.episodeTitle, "Ep 1 (renamed)")

    try store.transition(key, .fail(reason: "HTTP 503", nil))
    let failed = try XCTUnwrap(store.download(url: url))
    XCTAssertEqual(failed.state, .failed)
    XCTAssertEqual(failed.error, "HTTP 503")
    XCTAssertEqual(failed.bytes, 500, "bytes are kept for the resume")
    XCTAssertNil(failed.owner)

    try store.transition(key, .begin(wanted, owner: .current, bytesOnDisk: 500))
    try store.recordFinished(key, file: "/e/Show/a.mp3", bytes: 1000, episode: nil)
    let done = try XCTUnwrap(store.download(url: url))
    XCTAssertEqual(done.state, .done)
    XCTAssertEqual(done.file, "/e/Show/a.mp3")
    XCTAssertNil(done.error)
    XCTAssertEqual(done.progress, 1)

    try store.forgetFinishedDownloads(files: ["/e/Show/a.mp3"])
    XCTAssertNil(try store.download(url: url))
  }

  /// A finish batch is one commit, but each download in it stands alone: one whose row
  /// another live process is running is refused, and the others are recorded done all the same.
  func testAFinishBatchRecordsEachDownloadAndRefusesOnlyTheOneItMayNotFinish() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    let wanted = (0..<3).map {
      QueuedDownload(
        url: "https://cdn.example/\($0).mp3", episodeTitle: "Ep \($0)", owner: .current)
    }
    let keys = try store.queueDownloads(wanted)
    // The middle one is running in another process: pid 1 is always alive.
    let init1 = try XCTUnwrap(ProcessOwner(running: 1))
    for (index, key) in keys.enumerated() {
      try store.transition(
        key, .begin(wanted[index], owner: index == 1 ? init1 : .current, bytesOnDisk: 0))
    }
    let results = try store.recordFinished(
      keys.enumerated().map { index, key in
        FinishedDownload(
          key: key, file: "/e/Show/\(index).mp3", bytes: 1000, progress: nil, episode: nil)
      })
    guard results.count == 3, case .success(let first?) = results[0],
      case .failure(let refused) = results[1], case .success(let last?) = results[2]
    else { return XCTFail("\(results)") }
    XCTAssertEqual([first.file, last.file], ["/e/Show/0.mp3", "/e/Show/2.mp3"])
    XCTAssertEqual(
      refused, .illegalDownloadMove(url: wanted[1].url, move: "finish", from: "downloading"))
    XCTAssertEqual(
      try keys.map { try store.download(key: $0)?.state }, [.done, .downloading, .done])
    XCTAssertEqual(try store.download(key: keys[2])?.bytes, 1000)
  }

  func testDownloadsAreListedNewestFirstAndFilteredByState() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    let now = Date()
    for (offset, state) in [DownloadState.done, .queued, .failed].enumerated() {
      try store.seed(
        DownloadRecord(
          url: "https://cdn.example/\(offset).mp3", podcastTitle: "S", episodeTitle: "E\(offset)",
          state: state, partialPath: "/p/\(offset)", file: state == .done ? "/e/0.mp3" : nil),
        updatedAt: now.addingTimeInterval(Double(offset)))
    }
    XCTAssertEqual(try store.allDownloads().map(\.episodeTitle), ["E2", "E1", "E0"])
    XCTAssertEqual(
      try store.downloads(in: [.queued, .failed]).map(\.state), [.failed, .queued])
    XCTAssertEqual(try store.downloads(in: [.paused]), [])
  }

  /// Shown, never written: `status` reads a dead process's rows as paused.
  func testDownloadsOfDeadProcessesAreShownPaused() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    try store.seed(
      DownloadRecord(
        url: "https://a/1", podcastTitle: "S", episodeTitle: "alive", state: .downloading,
        partialPath: "/p/1", owner: .current))
    try store.seed(
      DownloadRecord(
        url: "https://a/2", podcastTitle: "S", episodeTitle: "dead", state: .downloading,
        partialPath: "/p/2",
        owner: ProcessOwner(pid: Int32.max - 1, started: 1, boot: ProcessOwner.currentBoot)))
    let shown = Dictionary(
      uniqueKeysWithValues: try store.downloadsForDisplay().map { ($0.url, $0.state) })
    XCTAssertEqual(shown, ["https://a/1": .downloading, "https://a/2": .paused])
    XCTAssertEqual(try store.download(url: "https://a/2")?.state, .downloading, "nothing written")
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
          let key = try store.queueDownloads([wanted])[0]
          try store.transition(key, .begin(wanted, owner: .current, bytesOnDisk: 0))
          try store.transition(key, .progress(DownloadProgress(bytes: Int64(index))))
        } catch {
          failures.append("\(error)")
        }
      }
    }
    XCTAssertEqual(failures.all, [])
    XCTAssertEqual(try first.allDownloads().count, 200)
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
