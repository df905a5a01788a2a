import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// The download path's promises under faults a real CDN or machine produces: only complete,
/// verified files under Episodes; never an episode twice; nothing recorded that is not so.
final class DownloadIntegrityTests: XCTestCase {
  /// A partial of version A resumes with If-Range "A"; a server that ignores If-Range answers
  /// 206 with version B's tail. Gluing that on would record a file that is neither.
  func testResumeAnsweredWithAnotherVersionStartsOverInsteadOfSplicing() throws {
    let episodes = FeedFixture.episodes(1, size: 2_000_000)
    let scenario = try DownloadScenario(episodes)
    let versionB = FeedFixture.bytes(2_000_000, seed: 777)
    scenario.serve(
      episodes[0],
      .sequence([
        DownloadScenario.plainRoute(episodes[0]).dropping(after: 200_000),
        .data(versionB, contentType: "audio/mpeg").withETag("\"B\"").ignoringIfRange(),
      ]))
    let result = try scenario.download()
    XCTAssertEqual(result.status, 0, result.stderr)
    let gets = scenario.gets(episodes[0])
    XCTAssertEqual(gets.count, 3, "whole, resume refused, whole again")
    guard gets.count == 3 else { return }
    XCTAssertEqual(gets[1].header("range"), "bytes=200000-")
    XCTAssertEqual(gets[1].header("if-range"), "\"\(episodes[0].guid)\"")
    XCTAssertNil(gets[2].header("range"), "after the mismatch the download starts from zero")
    scenario.assertFile(
      scenario.binary.episodesDirectory + "/" + scenario.defaultPath(episodes[0]),
      equals: versionB)
    XCTAssertEqual(scenario.binary.episodeFiles().count, 1)
  }

  /// Three bodies that are not the episode, each retried like any failure and then named on
  /// stderr with the reason; never a file, never "done", and tried again by the next run.
  func testEmptyTinyAndCompressedBodiesAreFailuresThatSayWhy() throws {
    var episodes = FeedFixture.episodes(4, size: 50_000)
    episodes[0].body = Data()
    episodes[0].declaredLength = 2_000_000
    episodes[1].body = Data(repeating: 0x41, count: 45)
    episodes[1].declaredLength = 30_000_000
    let scenario = try DownloadScenario(episodes)
    scenario.serve(episodes[2], DownloadScenario.plainRoute(episodes[2]).gzipped())

    let result = try scenario.download("--all", timeout: 60)
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertEqual(result.stderrLines.count, 3, result.stderr)
    for (episode, why) in zip(
      episodes[0...2], ["empty file (0 bytes)", "only 45 bytes", "gzip-compressed"])
    {
      let line = result.stderrLines.first { $0.contains(episode.path) } ?? ""
      XCTAssertTrue(line.contains(why), "\(episode.title): \(line)")
      XCTAssertEqual(scenario.gets(episode).count, 3, "\(episode.title) was not retried")
    }
    scenario.assertEpisodesHold([episodes[3]])

    let status = try scenario.binary.run(["status", "--json"])
    let rows = try XCTUnwrap(try status.json() as? [[String: Any]])
    for episode in episodes[0...2] {
      let row = rows.first { ($0["url"] as? String)?.hasSuffix(episode.path) == true }
      XCTAssertEqual(row?["state"] as? String, "failed", "\(episode.title)")
    }
    let rerun = try scenario.download("--all", timeout: 60)
    XCTAssertEqual(rerun.status, 1)
    XCTAssertEqual(scenario.gets(episodes[0]).count, 6, "the next run did not try again")
  }

  /// Every write to the downloads table fails (as on a full disk), while reads work. Each run
  /// must fail saying so, instead of saving A.mp3, then A (2).mp3 on the next run, each
  /// "successfully".
  func testLibraryThatCannotRecordDownloadsFailsInsteadOfDuplicating() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(1, size: 50_000))
    let created = try scenario.binary.run(["subscribe", scenario.feedURL])
    XCTAssertEqual(created.status, 0, created.stderr)
    let database = scenario.binary.library + "/.podcast/library.sqlite"
    try Self.failWrites(to: "downloads", in: database)

    for run in 1...2 {
      let result = try scenario.download()
      XCTAssertEqual(result.status, 1, "run \(run): \(result.stdout)")
      XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
      XCTAssertTrue(result.stderr.contains("no space left (test)"), "run \(run): \(result.stderr)")
      scenario.assertNothingUnderEpisodes()
    }
    try Self.sqlite(database, "DROP TRIGGER full_insert; DROP TRIGGER full_update;")
    let fixed = try scenario.download()
    XCTAssertEqual(fixed.status, 0, fixed.stderr)
    scenario.assertEpisodesHold(scenario.episodes)
  }

  /// Triggers that make every insert into or update of `table` fail, the way a full disk
  /// fails writes while reads go on working.
  static func failWrites(to table: String, in database: String) throws {
    try sqlite(
      database,
      """
      CREATE TRIGGER full_insert BEFORE INSERT ON \(table)
        BEGIN SELECT RAISE(ABORT, 'no space left (test)'); END;
      CREATE TRIGGER full_update BEFORE UPDATE ON \(table)
        BEGIN SELECT RAISE(ABORT, 'no space left (test)'); END;
      """)
  }

  static func sqlite(_ database: String, _ sql: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [database, sql]
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "sqlite3 \(sql)")
  }

  static func chattr(_ flag: String, _ path: String) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    process.arguments = [flag, path]
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Ten processes asked for the same episode at once: one downloads it; the others either
  /// find it done or say another process has it. Never `E5 (2).mp3`.
  func testParallelRunsNeverDownloadAnEpisodeTwice() throws {
    for trial in 1...3 {
      let episodes = FeedFixture.episodes(5, size: 300_000)
      let scenario = try DownloadScenario(episodes) { $0.trickling(bytesPerSecond: 3_000_000) }
      let runs = try (1...10).map { _ in try scenario.startDownload("5") }
      let results = try runs.map { try $0.wait(timeout: 60) }
      for result in results where result.status != 0 {
        XCTAssertEqual(result.status, 1, "trial \(trial): \(result.stderr)")
        XCTAssertTrue(
          result.stderr.contains("another podcast process is downloading"),
          "trial \(trial): \(result.stderr)")
      }
      XCTAssertTrue(results.contains { $0.status == 0 }, "trial \(trial): nobody downloaded it")
      scenario.assertEpisodesHold([scenario.episode(5)])
    }
  }

  /// The publisher moved the file (same GUID, new URL): still the episode already downloaded.
  func testNewEnclosureURLForTheSameGUIDIsTheSameEpisode() throws {
    let episodes = FeedFixture.episodes(1, size: 50_000)
    let scenario = try DownloadScenario(episodes)
    XCTAssertEqual(try scenario.download().status, 0)
    var moved = episodes[0]
    moved.path = "/other-cdn/episode-1.mp3"
    FeedFixture.serve([moved], title: scenario.title, on: scenario.server)

    let listing = try scenario.binary.run(["episodes", scenario.feedURL, "--json"])
    XCTAssertEqual(listing.status, 0, listing.stderr)
    let document = try XCTUnwrap(try listing.json() as? [String: Any])
    let first = try XCTUnwrap((document["episodes"] as? [[String: Any]])?.first)
    XCTAssertEqual(first["state"] as? String, "downloaded")

    let again = try scenario.download()
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertTrue(again.stdout.contains("already downloaded"), again.stdout)
    XCTAssertEqual(scenario.server.requests(for: moved.path).count, 0)
    scenario.assertEpisodesHold(episodes)
  }

  /// `.podcast/` deleted (or a new machine pointed at old Episodes): the files there are the
  /// episodes, not names to avoid with `A (2).mp3`.
  func testFilesOfALostLibraryAreRecognisedNotDownloadedAgain() throws {
    let episodes = FeedFixture.episodes(2, size: 50_000)
    let scenario = try DownloadScenario(episodes)
    XCTAssertEqual(try scenario.download("--all").status, 0)
    try FileManager.default.removeItem(atPath: scenario.binary.library + "/.podcast")

    let again = try scenario.download("--all")
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertTrue(again.stdout.hasSuffix("0 downloaded, 2 skipped, 0 failed\n"), again.stdout)
    for episode in episodes { XCTAssertEqual(scenario.gets(episode).count, 1) }
    scenario.assertEpisodesHold(episodes)
    let listing = try scenario.binary.run(["episodes", scenario.feedURL, "--json"])
    let document = try XCTUnwrap(try listing.json() as? [String: Any])
    let states = (document["episodes"] as? [[String: Any]])?.compactMap { $0["state"] as? String }
    XCTAssertEqual(states, ["downloaded", "downloaded"])
  }
}

/// An Episodes directory on another filesystem: the copy can never be seen half-done.
final class CrossFilesystemTests: XCTestCase {
  /// Watches the directory while three 8 MB episodes are copied onto tmpfs: no name but the
  /// finished episodes (and their folder) ever appears, not even a hidden temporary one.
  func testNothingButFinishedEpisodesEverAppearUnderEpisodes() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(3, size: 8_000_000))
    let elsewhere = "/dev/shm/podcast-test-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: elsewhere) }
    scenario.binary.environment["PODCAST_EPISODES_DIR"] = elsewhere
    // The podcast folder's playlist is there too once the episodes are: it is written under a
    // hidden name and renamed (a player never reads half of it), after every episode is in place.
    let playlist = scenario.title + "/" + scenario.title + ".m3u8"
    let expected = Set(
      [scenario.title, playlist] + scenario.episodes.map(scenario.defaultPath))
    let watcher = DirectoryWatcher(elsewhere)
    let result = try scenario.download("--all", timeout: 60)
    let seen = watcher.stop().filter { !$0.hasPrefix(scenario.title + "/.podcast-playlist-") }
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(seen.subtracting(expected), [], "names seen under Episodes during the copy")
    XCTAssertEqual(seen, expected)
  }
}

/// Lists a directory tree as fast as it can on its own thread, remembering every path seen.
final class DirectoryWatcher: @unchecked Sendable {
  private let lock = NSLock()
  private var seen: Set<String> = []
  private var running = true
  private let done = DispatchSemaphore(value: 0)

  init(_ directory: String) {
    Thread.detachNewThread { [self] in
      while lock.withLock({ running }) {
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []
        lock.withLock { seen.formUnion(paths) }
      }
      done.signal()
    }
  }

  func stop() -> Set<String> {
    lock.withLock { running = false }
    done.wait()
    return lock.withLock { seen }
  }
}
