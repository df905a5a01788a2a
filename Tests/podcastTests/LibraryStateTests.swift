import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// What `status`, `episodes` and the download reports say is what is on disk and in the
/// library, never more, never less.
final class LibraryStateTests: LibraryTestCase {
  private func scenario(_ count: Int = 1, size: Int = 50_000) throws -> DownloadScenario {
    try DownloadScenario(FeedFixture.episodes(count, size: size))
  }

  /// A resume the server can no longer serve (416) after two drops: the last error is a
  /// sentence naming the URL, never an internal marker such as "needed".
  func testAFailureAfterRetriesIsASentenceNotAMarker() throws {
    let scenario = try scenario(size: 300_000)
    let episode = scenario.episode(1)
    let plain = DownloadScenario.plainRoute(episode)
    scenario.serve(
      episode,
      .sequence([plain.dropping(after: 50_000), plain.dropping(after: 50_000), .status(416)]))
    let result = try scenario.download(timeout: 30)
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    let line = result.stderrLines.first ?? ""
    XCTAssertTrue(line.contains(episode.path), line)
    XCTAssertFalse(line.hasSuffix("needed"), line)
    XCTAssertTrue(line.contains("416") || line.contains("changed on the server"), line)
  }

  func testStatusShowsTheDownloadsStillWaitingAsQueued() throws {
    let scenario = try scenario(4, size: 200_000)
    // Each body is held mid-way, so the one download running stays running while the test
    // looks (the hold is not a stall for it to give up on) and the other three wait.
    for episode in scenario.episodes {
      scenario.serve(
        episode, DownloadScenario.plainRoute(episode).stalling(after: 50_000, seconds: nil))
    }
    scenario.binary.environment["PODCAST_TIMEOUT"] = "120"
    let running = try scenario.startDownload("--all", "--concurrency", "1")
    let held = scenario.server.wait {
      scenario.episodes.map { scenario.server.bodyBytesSent(for: $0.path) }.reduce(0, +) == 50_000
    }
    XCTAssertTrue(held, "the first download never reached its hold")
    var states: [String] = []
    let seen = DownloadScenario.waitUntil(seconds: 30) {
      let status = try? scenario.binary.run(["status", "--json"])
      let rows = (try? status?.json()) as? [[String: Any]] ?? []
      states = rows.compactMap { $0["state"] as? String }
      return states.contains("downloading") && states.filter { $0 == "queued" }.count == 3
    }
    XCTAssertTrue(seen, "status never showed one download running and three queued: \(states)")
    running.signal(SIGKILL)
    _ = try? running.wait()
    XCTAssertEqual(states.sorted(), ["downloading", "queued", "queued", "queued"])
    // Killed, the queue is not waiting on anybody any more.
    let after = try scenario.binary.run(["status", "--json"])
    let rows = try XCTUnwrap(try after.json() as? [[String: Any]])
    XCTAssertEqual(
      rows.compactMap { $0["state"] as? String }, ["paused", "paused", "paused", "paused"])
  }

  func testAFileDeletedByHandIsNoLongerShownAsDone() throws {
    let scenario = try scenario()
    XCTAssertEqual(try scenario.download().status, 0)
    let path = scenario.binary.episodesDirectory + "/" + scenario.defaultPath(scenario.episode(1))
    try FileManager.default.removeItem(atPath: path)
    let status = try scenario.binary.run(["status", "--json"])
    XCTAssertEqual(status.status, 0, status.stderr)
    XCTAssertEqual(try XCTUnwrap(try status.json() as? [[String: Any]]).count, 0)
    // Not `new` either: sync leaves an episode its owner deleted alone; the listing says why.
    let listing = try scenario.binary.run(["episodes", scenario.feedURL])
    XCTAssertTrue(listing.stdout.contains(" deleted "), listing.stdout)
    XCTAssertFalse(listing.stdout.contains(" done "), listing.stdout)
  }

  /// 300,000 of 301,000 bytes is 99%, not a finished-looking 100%.
  func testANearlyCompleteFailedDownloadIsNotShownAsComplete() throws {
    let scenario = try scenario(size: 301_000)
    let plain = DownloadScenario.plainRoute(scenario.episode(1))
    scenario.serve(scenario.episode(1), .sequence([plain.dropping(after: 300_000), .status(503)]))
    let result = try scenario.download(timeout: 30)
    XCTAssertEqual(result.status, 1)
    let status = try scenario.binary.run(["status"])
    let row = status.stdout.split(separator: "\n").first { $0.hasPrefix("failed") } ?? ""
    XCTAssertTrue(row.contains("99%"), String(row))
    XCTAssertFalse(row.contains("100%"), String(row))
  }

  /// Looking never writes: with every write to the downloads failing (a full disk), status
  /// and episodes still show everything, including a download a killed process left behind.
  func testStatusAndEpisodesNeverWriteToTheLibrary() throws {
    let scenario = try scenario(2, size: 300_000)
    XCTAssertEqual(try scenario.download("2").status, 0)
    scenario.serve(
      scenario.episode(1),
      DownloadScenario.plainRoute(scenario.episode(1)).stalling(after: 100_000, seconds: nil))
    let killed = try scenario.startDownload("1")
    XCTAssertTrue(
      DownloadScenario.waitUntil(seconds: 30) { scenario.partialSizes().first ?? 0 >= 100_000 },
      "the partial file never reached the stall: \(scenario.partialSizes())")
    killed.signal(SIGKILL)
    _ = try? killed.wait()
    let database = scenario.binary.library + "/.podcast/library.sqlite"
    try DownloadIntegrityTests.failWrites(to: "downloads", in: database)

    let status = try scenario.binary.run(["status", "--json"])
    XCTAssertEqual(status.status, 0, status.stderr)
    let rows = try XCTUnwrap(try status.json() as? [[String: Any]])
    XCTAssertEqual(rows.compactMap { $0["state"] as? String }.sorted(), ["done", "paused"])
    let listing = try scenario.binary.run(["episodes", scenario.feedURL])
    XCTAssertEqual(listing.status, 0, listing.stderr)
    XCTAssertTrue(listing.stdout.contains(" done "), listing.stdout)
  }

  /// Commands that only look create no library: in an empty folder each says there is
  /// nothing, exits 0, and leaves the folder empty (no `.podcast/`, no `Episodes/`).
  func testReadingCommandsInAnEmptyFolderCreateNothing() throws {
    let show = Show("looked-at", episodes: 2, on: server)
    let commands = [
      ["subscriptions"], ["subscriptions", "--json"], ["status"], ["status", "--json"],
      ["export"], ["episodes", show.feedURL], ["episodes", show.feedURL, "--json"],
    ]
    for command in commands {
      let result = try binary.run(command)
      XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
    }
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: binary.library).sorted(), [],
      "a command that only reads made something in the library folder")
  }

  /// A truncated database is a damaged library, not a new empty one that `sync --quiet`
  /// would then silently keep empty forever.
  func testAnEmptyDatabaseFileIsAClearError() throws {
    let show = Show("truncated", episodes: 1, on: server)
    try subscribe(show)
    let database = binary.library + "/.podcast/library.sqlite"
    for suffix in ["-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: database + suffix)
    }
    XCTAssertEqual(truncate(database, 0), 0)
    for command in [["sync", "--quiet"], ["status"], ["subscriptions"]] {
      let result = try binary.run(command)
      XCTAssertEqual(result.status, 1, "\(command): \(result.stdout)")
      XCTAssertTrue(result.stderr.contains("is empty (0 bytes)"), "\(command): \(result.stderr)")
    }
    var info = stat()
    XCTAssertEqual(stat(database, &info), 0)
    XCTAssertEqual(info.st_size, 0, "the damaged file was overwritten")
  }

  /// Garbage where the database was: `episodes` must not call every episode new.
  func testACorruptDatabaseIsAnErrorNotAListOfNewEpisodes() throws {
    let scenario = try scenario()
    XCTAssertEqual(try scenario.download().status, 0)
    let database = scenario.binary.library + "/.podcast/library.sqlite"
    for suffix in ["-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: database + suffix)
    }
    try Data(repeating: 0x5A, count: 64 * 1024).write(to: URL(fileURLWithPath: database))
    let listing = try scenario.binary.run(["episodes", scenario.feedURL])
    XCTAssertEqual(listing.status, 1, listing.stdout)
    XCTAssertEqual(listing.stderrLines.count, 1, listing.stderr)
    XCTAssertTrue(listing.stderr.contains(database), listing.stderr)
    XCTAssertFalse(listing.stdout.contains(" new "), listing.stdout)
  }

  /// A permanent redirect onto a feed that another subscription follows: said once per sync
  /// as a failure naming both, and nothing moves (a silent refusal would repeat forever).
  func testAMoveOntoAFeedAlreadySubscribedIsNamedNotLooped() throws {
    let first = Show("first", episodes: 1, on: server)
    let second = Show("second", episodes: 1, on: server)
    try subscribe(first)
    try subscribe(second)
    XCTAssertEqual(try podcast("sync").status, 0)
    server.set(first.feedPath, .redirect(to: second.feedURL, status: 301))
    for _ in 1...2 {
      let sync = try podcast("sync")
      XCTAssertEqual(sync.status, 1)
      XCTAssertEqual(sync.stderrLines.count, 1, sync.stderr)
      XCTAssertTrue(sync.stderr.contains("already subscribed as \"second\""), sync.stderr)
      XCTAssertFalse(sync.stdout.contains("moved"), sync.stdout)
    }
    let feeds = try subscriptions().compactMap { $0["feedURL"] as? String }
    XCTAssertEqual(feeds, [first.feedURL, second.feedURL])
  }

  func testJSONFailuresAreAlsoNamedOnStderr() throws {
    let scenario = try scenario(3)
    scenario.serve(scenario.episode(1), .status(404))
    scenario.serve(scenario.episode(2), .status(410))
    let result = try scenario.download("--all", "--json")
    XCTAssertEqual(result.status, 1)
    let document = try result.downloadDocument()
    XCTAssertEqual(document["failed"]?.count, 2)
    XCTAssertEqual(result.stderrLines.count, 2, result.stderr)
    XCTAssertTrue(result.stderrLines.allSatisfy { $0.contains("HTTP 4") }, result.stderr)
  }
}
