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
}
