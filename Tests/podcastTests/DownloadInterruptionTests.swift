import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// `podcast download` stopped from outside (kill -9, Ctrl-C) or by the disk: the partial file
/// survives and resumes, and Episodes only ever holds complete files.
final class DownloadInterruptionTests: XCTestCase {
  private let size = 400_000
  private let beforeStall = 150_000

  /// The first request sends `beforeStall` bytes and then nothing, so the test can act mid-body.
  private func stallingScenario() throws -> DownloadScenario {
    try DownloadScenario(FeedFixture.episodes(1, size: size)) {
      $0.stalling(after: beforeStall, seconds: nil, times: 1)
    }
  }

  /// Until the partial file holds the bytes sent before the stall and the row holds the
  /// response's head, which a resume is planned from (`status` shows the size once it does):
  /// the head is recorded off the transfer thread, so bytes may be on disk a moment before
  /// the row can vouch for them, and a kill in that moment rightly starts over.
  private func waitForPartialBytes(_ scenario: DownloadScenario) -> Bool {
    DownloadScenario.waitUntil(seconds: 15) { [size, beforeStall] in
      guard scenario.partialSizes().first ?? 0 >= beforeStall,
        let status = try? scenario.binary.run(["status", "--json"]), status.status == 0,
        let rows = try? status.json() as? [[String: Any]]
      else { return false }
      return rows.contains { ($0["total"] as? Int) == size }
    }
  }

  func testKilledDownloadResumesWhereItStopped() throws {
    let scenario = try stallingScenario()
    let episode = scenario.episode(1)
    let running = try scenario.startDownload()
    XCTAssertTrue(waitForPartialBytes(scenario), "no partial file grew: \(scenario.partialSizes())")
    scenario.assertNothingUnderEpisodes()
    running.signal(SIGKILL)
    _ = try running.wait(timeout: 10)
    scenario.assertNothingUnderEpisodes()
    XCTAssertEqual(scenario.partialSizes(), [beforeStall])

    scenario.serve(episode, DownloadScenario.plainRoute(episode))
    let rerun = try scenario.download()
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    XCTAssertEqual(scenario.ranges(episode), [nil, "bytes=\(beforeStall)-"])
    scenario.assertEpisodesHold([episode])
    XCTAssertEqual(scenario.binary.partialFiles(), [])
  }

  func testCtrlCKeepsThePartialFileAndExits130() throws {
    let scenario = try stallingScenario()
    let episode = scenario.episode(1)
    let running = try scenario.startDownload()
    XCTAssertTrue(waitForPartialBytes(scenario), "no partial file grew: \(scenario.partialSizes())")
    running.signal(SIGINT)
    let interrupted = try running.wait(timeout: 10)
    XCTAssertEqual(interrupted.status, 130, interrupted.stderr)
    XCTAssertEqual(interrupted.stderrLines.count, 1, interrupted.stderr)
    XCTAssertTrue(interrupted.stderr.contains("partial downloads are kept"), interrupted.stderr)
    XCTAssertTrue(interrupted.stderr.contains("resume"), interrupted.stderr)
    XCTAssertEqual(scenario.partialSizes(), [beforeStall])
    scenario.assertNothingUnderEpisodes()

    let rerun = try scenario.download()
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    XCTAssertEqual(scenario.ranges(episode).last, "bytes=\(beforeStall)-")
    scenario.assertEpisodesHold([episode])
  }

  /// `ulimit -f` makes writes fail with EFBIG the way a full disk fails them with ENOSPC. The
  /// limit (200 or 400 kB, as the shell counts blocks of 512 bytes or 1 kB) is above what a new
  /// library's database takes (about 124 kB) and below the episode.
  func testFullDiskIsACleanFailure() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(1, size: 600_000))
    let shell = try RunningPodcast(
      executable: URL(fileURLWithPath: "/bin/sh"),
      arguments: [
        "-c", "ulimit -f 400; exec \"$0\" \"$@\"", PodcastBinary.url.path, "download",
        scenario.feedURL,
      ],
      environment: scenario.binary.environment, stdin: nil)
    let result = try shell.wait(timeout: 30)
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    let line = result.stderrLines.first ?? ""
    XCTAssertTrue(line.contains("/.podcast/partial/"), "does not name the file: \(line)")
    XCTAssertTrue(line.contains("File too large") || line.contains("no space left"), line)
    scenario.assertNothingUnderEpisodes()
  }

  func testUnwritableEpisodesDirectoryIsAClearFailure() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(1, size: 5_000))
    let blocked: String
    var arguments: [String] = []
    if geteuid() == 0 {
      // chmod does not stop root: make the directory impossible instead, under a regular file.
      let file = scenario.binary.library + "/a-regular-file"
      XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
      blocked = file + "/Episodes"
      arguments = ["--episodes-dir", blocked]
    } else {
      blocked = scenario.binary.episodesDirectory
      try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: true)
      XCTAssertEqual(chmod(blocked, 0o555), 0)
    }
    let result = try scenario.binary.run(["download", scenario.feedURL] + arguments)
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains(blocked), result.stderr)
    scenario.assertNothingUnderEpisodes()
  }
}
