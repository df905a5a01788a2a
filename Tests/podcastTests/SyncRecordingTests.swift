import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Sync records each episode the moment it lands, so a killed run's finished files are known:
/// pruned by `--keep`, and removed by `unsubscribe --delete-files` with what `download`
/// fetched from the same feed.
final class SyncRecordingTests: LibraryTestCase {
  func testEpisodesAKilledSyncFinishedArePrunedAndDeletedLikeAnyOther() throws {
    let show = Show("recorded", episodes: 1, size: 50_000, on: server)
    try subscribe(show, keep: 2)
    XCTAssertEqual(try podcast("sync").status, 0)
    assertEpisodeFiles([show.episode(1)])

    // Three new episodes; the newest never finishes, the other two land, then a kill.
    show.publish(3)
    server.set(
      show.episode(4).path,
      DownloadScenario.plainRoute(show.episode(4)).stalling(after: 10_000, seconds: nil))
    let running = try binary.start(["sync"])
    eventually("episodes 2 and 3 to land", timeout: 20) {
      binary.episodeFiles().count == 3
    }
    running.signal(SIGKILL)
    _ = try? running.wait()

    show.serve()
    let rerun = try podcast("sync")
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    assertEpisodeFiles([show.episode(4), show.episode(3)])

    // Episode 1 again, this time by `download` (index 4 of the feed).
    let fetched = try podcast("download", show.feedURL, "4")
    XCTAssertEqual(fetched.status, 0, fetched.stderr)
    XCTAssertEqual(binary.episodeFiles().count, 3)

    let gone = try podcast("unsubscribe", show.slug, "--delete-files")
    XCTAssertEqual(gone.status, 0, gone.stderr)
    XCTAssertTrue(gone.stdout.contains("deleted 3 files"), gone.stdout)
    XCTAssertEqual(binary.episodeFiles(), [])
    XCTAssertEqual(try statusRows().filter { $0["state"] as? String == "done" }.count, 0)
  }
}
