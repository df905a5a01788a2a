import Foundation
import LoopbackServer
import XCTest

/// Counts that say what happened: episodes Ctrl-C stopped are interrupted, not failed.
final class HonestCountTests: LibraryTestCase {
  /// Two downloads held mid-body, then Ctrl-C: exit 130, the one line saying so, no episode
  /// counted or listed as failed (the transfers the signal stops end as failures inside), and
  /// both paused, for `download` and for `sync`, at a few moments of the hold.
  func testCtrlCCountsNoEpisodeAsFailed() throws {
    binary.environment["PODCAST_TIMEOUT"] = "120"
    for (round, command) in [["download", "held", "1-2"], ["sync"], ["download", "held", "1-2"]]
      .enumerated()
    {
      let show = Show("held\(round)", episodes: 2, size: 300_000, on: server)
      show.enclosure = { $0.stalling(after: 50_000 + round * 20_000, seconds: nil) }
      show.serve()
      XCTAssertEqual(
        try podcast("subscribe", show.feedURL, "--name", "held", "--first", "2").status, 0)
      let running = try binary.start(command)
      XCTAssertTrue(
        server.wait {
          show.episodes.allSatisfy { self.server.bodyBytesSent(for: $0.path) >= 50_000 }
        }, "\(command): both downloads began")
      running.signal(SIGINT)
      let interrupted = try running.wait(timeout: 20)
      XCTAssertEqual(interrupted.status, 130, "\(command): \(interrupted.stderr)")
      XCTAssertFalse(interrupted.stdout.contains("failed"), "\(command): \(interrupted.stdout)")
      XCTAssertEqual(interrupted.stderrLines.count, 1, "\(command): \(interrupted.stderr)")
      XCTAssertTrue(interrupted.stderr.contains("interrupted"), interrupted.stderr)
      let states = try statusRows().filter {
        ($0["url"] as? String)?.contains("/held\(round)/") == true
      }.compactMap { $0["state"] as? String }
      XCTAssertEqual(states, ["paused", "paused"], "\(command)")
      server.releaseStalls()
      XCTAssertEqual(try podcast("unsubscribe", "held").status, 0)
    }
  }

  /// Changing a new subscription's filters makes its first sync decide afresh; its episode
  /// count stays what its feed lists (it showed 0 until the next sync, and `--unset` did not
  /// bring it back).
  func testChangingFiltersBeforeTheFirstSyncKeepsTheEpisodeCount() throws {
    let show = Show("counted", episodes: 3, on: server)
    try subscribe(show)
    func count() throws -> Int? { try subscriptions().first?["episodeCount"] as? Int }
    XCTAssertEqual(try count(), 3)
    XCTAssertEqual(try podcast("set", "counted", "--match", "episode 2").status, 0)
    XCTAssertEqual(try count(), 3, "after --match")
    XCTAssertTrue(try podcast("subscriptions").stdout.contains("counted         3"))
    XCTAssertEqual(try podcast("set", "counted", "--unset", "match").status, 0)
    XCTAssertEqual(try count(), 3, "after --unset match")
    // The first sync decides with the filters then in force, and the count stays.
    XCTAssertEqual(try podcast("set", "counted", "--match", "episode 2").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try count(), 3, "after the first sync")
    XCTAssertEqual(
      binary.episodeFiles().map { ($0 as NSString).lastPathComponent.contains("episode 2") }, [true]
    )
  }
}
