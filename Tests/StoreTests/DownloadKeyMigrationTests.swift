import Foundation
import GRDB
import Model
import StoreTestSupport
import XCTest

@testable import Store

#if canImport(Glibc)
  import Glibc
#endif

/// Libraries written before download rows were keyed by episode ("v6-download-keys"), and
/// the sweep that keeps `.podcast/partial/` to the partial files of unfinished downloads.
final class DownloadKeyMigrationTests: XCTestCase {
  private let feed = "https://a.example/feed"

  /// An older version left one episode twice (done under its new link, paused under the old
  /// one), another paused with its partial file named after its URL, and a download with no
  /// feed: after the migration each is one row, keyed by its episode (the last by its URL),
  /// and the next run's sweep takes over the URL-named partial and removes the orphan.
  func testAnOlderLibraryKeepsOneRowPerEpisodeAndItsPartialFiles() throws {
    let old = try TemporaryLibrary()
    let paths = old.paths
    try paths.prepare()
    let queue = try DatabaseQueue(path: paths.database)
    try LibrarySchema.migrator.migrate(queue, upTo: "v5-download-details")
    let newLink = "https://cdn.example/1.mp3?v=2"
    let oldLink = "https://cdn.example/1.mp3?v=1"
    let second = "https://cdn.example/2.mp3"
    let loose = "https://cdn.example/loose.mp3"
    let file = paths.episodes + "/Show/One.mp3"
    try FileManager.default.createDirectory(
      atPath: paths.episodes + "/Show", withIntermediateDirectories: true)
    XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("audio".utf8)))
    try queue.write { db in
      let insert = """
        INSERT INTO downloads (url, podcastTitle, episodeTitle, state, bytes, total, partialPath,
          file, etag, updatedAt, episodeKey, feedURL)
        VALUES (?, 'Show', ?, ?, ?, 100, ?, ?, '"v1"', ?, ?, ?)
        """
      for (url, title, state, bytes, done, updated, key, feedURL) in [
        (newLink, "One", "done", 100, file, "2024-05-02 00:00:00.000", "guid:1", feed),
        (oldLink, "One", "paused", 38, nil, "2024-05-03 00:00:00.000", "guid:1", feed),
        (second, "Two", "paused", 5, nil, "2024-05-01 00:00:00.000", "guid:2", feed),
        (loose, "Loose", "failed", 3, nil, "2024-05-01 00:00:00.000", nil, nil),
      ] as [(String, String, String, Int, String?, String, String?, String?)] {
        try db.execute(
          sql: insert,
          arguments: [
            url, title, state, bytes, paths.partial(for: url), done, updated, key, feedURL,
          ])
      }
    }
    try queue.close()
    for (url, size) in [(oldLink, 38), (second, 5), (loose, 3)] {
      try Data(repeating: 7, count: size).write(to: URL(fileURLWithPath: paths.partial(for: url)))
    }

    let store = try old.store()
    let rows = Dictionary(
      uniqueKeysWithValues: try DownloadRows(store: store).all().map { ($0.key, $0) })
    let one = DownloadKey(feedURL: feed, episodeKey: "guid:1", url: "")
    let two = DownloadKey(feedURL: feed, episodeKey: "guid:2", url: "")
    let bare = DownloadKey(text: loose)
    XCTAssertEqual(Set(rows.keys), [one, two, bare], "one row per episode")
    XCTAssertEqual(rows[one]?.state, .done, "the finished row wins")
    XCTAssertEqual(rows[one]?.url, newLink)
    XCTAssertEqual(rows[one]?.file, file)
    XCTAssertEqual(rows[two]?.state, .paused)
    XCTAssertEqual(rows[two]?.etag, "\"v1\"")
    XCTAssertEqual(rows[two]?.partialPath, paths.partial(forKey: two))
    XCTAssertEqual(rows[bare]?.partialPath, paths.partial(for: loose), "keyed by URL: same name")
    XCTAssertEqual(try DownloadRows(store: store).forDisplay().count, 3)
    // Read before any run took the file over: still found under its URL's name.
    XCTAssertEqual(rows[two].flatMap(DownloadRows(store: store).partialSize), 5)

    let removed = try PartialSweep(store: store).run()
    XCTAssertEqual(removed, [paths.partial(for: oldLink)], "the orphan of the merged row")
    XCTAssertEqual(size(paths.partial(forKey: two)), 5, "taken over under the episode's key")
    XCTAssertNil(size(paths.partial(for: second)))
    XCTAssertEqual(size(paths.partial(forKey: bare)), 3)
    XCTAssertEqual(try PartialSweep(store: store).run(), [], "nothing more to do")
  }

  /// A partial file with no row, or whose row is done, goes; one another process holds
  /// (locked, as a running download holds its partial file) stays until it is let go.
  func testTheSweepRemovesOrphansButNothingHeld() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    let paths = library.paths
    let wanted = QueuedDownload(
      url: "https://cdn.example/a.mp3", feedURL: feed, identityKeys: ["guid:a"])
    let finished = QueuedDownload(
      url: "https://cdn.example/b.mp3", feedURL: feed, identityKeys: ["guid:b"])
    let keys = try DownloadRows(store: store).queue([wanted, finished])
    try DownloadRows(store: store).recordFinished(
      keys[1], file: "/e/b.mp3", bytes: 10, episode: nil)
    let kept = paths.partial(forKey: keys[0])
    let done = paths.partial(forKey: keys[1])
    let rowless = paths.partial(forKey: DownloadKey(text: "https://cdn.example/gone.mp3"))
    let held = paths.partial(forKey: DownloadKey(text: "https://cdn.example/held.mp3"))
    let other = paths.partials + "/notes.txt"
    for path in [kept, done, rowless, held, other] {
      XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    }
    try Data("debris".utf8).write(to: URL(fileURLWithPath: rowless + ".tagging"))
    let lock = open(held, O_RDWR)
    XCTAssertEqual(flock(lock, LOCK_EX | LOCK_NB), 0)

    let removed = try PartialSweep(store: store).run()
    XCTAssertEqual(Set(removed), [done, rowless])
    for path in [kept, held, other] { XCTAssertNotNil(size(path), path) }
    XCTAssertNil(size(rowless + ".tagging"))

    close(lock)
    XCTAssertEqual(try PartialSweep(store: store).run(), [held])
    XCTAssertNotNil(size(kept))
  }

  private func size(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
  }
}
