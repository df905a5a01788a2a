import Foundation
import LoopbackServer
import XCTest

/// Retention through the binary: `--keep N` counts every file a subscription has on disk,
/// however it came (issue 46); what it removes is recorded deleted, like a file played away or
/// removed by hand (issue 42); an episode kept forever outlives it; and `download` says when
/// what it just fetched will go at the next sync.
final class RetentionCommandTests: LibraryTestCase {
  private func states(_ name: String) throws -> [String: String] {
    let listed = try podcast("episodes", name, "--json").listedEpisodes()
    return Dictionary(
      listed.compactMap { episode in
        (episode["title"] as? String).map { ($0, episode["state"] as? String ?? "") }
      }, uniquingKeysWith: { first, _ in first })
  }

  func testAFileRemovedByRetentionIsListedDeletedAndNotFetchedAgain() throws {
    let show = Show("pruned", episodes: 3, on: server)
    XCTAssertEqual(try podcast("subscribe", show.feedURL, "--first", "all").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(binary.episodeFiles().count, 3)
    XCTAssertEqual(try podcast("set", "pruned-show", "--keep", "1").status, 0)

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    assertEpisodeFiles([show.episode(3)])
    XCTAssertEqual(
      try states("pruned-show"),
      [
        "pruned episode 3": "downloaded", "pruned episode 2": "deleted",
        "pruned episode 1": "deleted",
      ])
    show.publish(1)
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(requestCount(show.episode(1)) + requestCount(show.episode(2)), 2)
    assertEpisodeFiles([show.episode(4)])
    XCTAssertEqual(try states("pruned-show")["pruned episode 3"], "deleted")
  }

  /// The issue's own steps: three episodes by `download`, then a subscription keeping two,
  /// then two more by `download` of the subscription, then a sync.
  func testKeepCountsEveryFileOfTheSubscriptionHoweverItCame() throws {
    let show = Show("cr", episodes: 6, on: server)
    XCTAssertEqual(try podcast("download", show.feedURL, "2-4").status, 0)
    XCTAssertEqual(
      try podcast("subscribe", show.feedURL, "--name", "cr", "--keep", "2").status, 0)

    let fetched = try podcast("download", "cr", "5-6")

    XCTAssertEqual(fetched.status, 0, fetched.stderr)
    XCTAssertTrue(
      fetched.stdout.contains(
        "note: the next sync deletes 2 of these files: cr keeps its newest 2 (--keep 2)"),
      fetched.stdout)
    let preview = try podcast("sync", "--dry-run")
    XCTAssertEqual(preview.status, 0, preview.stderr)
    for number in 1...4 {
      XCTAssertTrue(
        preview.stdout.contains("cr episode \(number).mp3"), "\(number): \(preview.stdout)")
    }

    XCTAssertEqual(try podcast("sync").status, 0)

    assertEpisodeFiles([show.episode(6), show.episode(5)])
    let states = try states("cr")
    XCTAssertEqual(states["cr episode 6"], "downloaded")
    XCTAssertEqual(states["cr episode 1"], "deleted")
    XCTAssertEqual(states["cr episode 4"], "deleted")
  }

  func testAnEpisodeKeptForeverOutlivesRetentionAndIsShown() throws {
    let show = Show("kept", episodes: 4, on: server)
    XCTAssertEqual(
      try podcast("subscribe", show.feedURL, "--name", "kept", "--first", "all")
        .status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    let marked = try podcast("mark", "kept", "4", "--keep-forever")
    XCTAssertEqual(marked.status, 0, marked.stderr)
    XCTAssertEqual(marked.stdout, "Marked 1 episode to keep forever.\n")
    XCTAssertEqual(try podcast("set", "kept", "--keep", "1").status, 0)

    XCTAssertEqual(try podcast("sync").status, 0)

    assertEpisodeFiles([show.episode(4), show.episode(1)])
    let listed = try podcast("episodes", "kept", "--json").listedEpisodes()
    let forever = listed.filter { $0["keptForever"] as? Bool == true }
    XCTAssertEqual(forever.compactMap { $0["title"] as? String }, ["kept episode 1"])
    let table = try podcast("episodes", "kept")
    let row = table.stdout.split(separator: "\n").first { $0.hasSuffix("kept episode 1") }
    XCTAssertTrue(row?.contains(" kept ") == true, table.stdout)

    XCTAssertEqual(try podcast("mark", "kept", "4", "--no-keep-forever").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    assertEpisodeFiles([show.episode(4)])
  }
}
