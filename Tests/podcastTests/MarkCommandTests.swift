import Foundation
import LoopbackServer
import XCTest

/// `podcast mark FEED SELECTION (--skip | --downloaded | --new)`: `episodes` shows the marks,
/// sync honours them, and they survive syncs.
final class MarkCommandTests: LibraryTestCase {
  private func states(_ feed: String) throws -> [Int: String] {
    let document = try XCTUnwrap(try json("episodes", feed, "--json") as? [String: Any])
    let episodes = try XCTUnwrap(document["episodes"] as? [[String: Any]])
    var states: [Int: String] = [:]
    for episode in episodes {
      if let index = episode["index"] as? Int { states[index] = episode["state"] as? String }
    }
    return states
  }

  func testSyncSkipsMarkedEpisodesAndTheMarksSurviveSyncs() throws {
    let show = Show("backlog", episodes: 6, on: server)
    XCTAssertEqual(
      try podcast("subscribe", show.feedURL, "--name", "backlog", "--first", "all").status, 0)
    // Indexes: 1 is episode 6 (the newest) ... 6 is episode 1.
    XCTAssertEqual(try podcast("mark", "backlog", "3-5", "--skip").status, 0)
    XCTAssertEqual(try podcast("mark", "backlog", "6", "--downloaded").status, 0)
    XCTAssertEqual(
      try states(show.feedURL),
      [1: "new", 2: "new", 3: "skipped", 4: "skipped", 5: "skipped", 6: "downloaded"])

    let first = try podcast("sync")
    XCTAssertEqual(first.status, 0, first.stderr)
    assertEpisodeFiles([show.episode(6), show.episode(5)])
    for number in 1...4 {
      XCTAssertEqual(requestCount(show.episode(number)), 0, "episode \(number) was fetched")
    }

    show.publish(1)
    let second = try podcast("sync")
    XCTAssertEqual(second.status, 0, second.stderr)
    assertEpisodeFiles([show.episode(7), show.episode(6), show.episode(5)])
    XCTAssertEqual(
      try states(show.feedURL),
      [
        1: "downloaded", 2: "downloaded", 3: "downloaded", 4: "skipped", 5: "skipped", 6: "skipped",
        7: "downloaded",
      ], "marks after two syncs")

    // --new undoes a mark, and the next sync takes the episode as new.
    XCTAssertEqual(try podcast("mark", show.feedURL, "5", "--new").status, 0)
    XCTAssertEqual(try states(show.feedURL)[5], "new")
    let third = try podcast("sync")
    XCTAssertEqual(third.status, 0, third.stderr)
    assertEpisodeFiles([show.episode(7), show.episode(6), show.episode(5), show.episode(3)])
    XCTAssertEqual(requestCount(show.episode(1)) + requestCount(show.episode(2)), 0)
    XCTAssertEqual(requestCount(show.episode(4)), 0)
  }

  func testTheTableShowsSkippedAndBadSelectionsAreUsageErrors() throws {
    let show = Show("table", episodes: 3, on: server)
    XCTAssertEqual(try podcast("mark", show.feedURL, "2", "--skip").status, 0)
    let table = try podcast("episodes", show.feedURL)
    let row = table.stdout.split(separator: "\n").first { $0.hasPrefix("2 ") }
    XCTAssertTrue(row?.contains("skipped") == true, table.stdout)

    let outOfRange = try podcast("mark", show.feedURL, "9", "--skip")
    XCTAssertEqual(outOfRange.status, 64, outOfRange.stderr)
    XCTAssertTrue(outOfRange.stderr.contains("episode 9 does not exist"), outOfRange.stderr)
    XCTAssertEqual(try podcast("mark", show.feedURL, "1").status, 64, "a mark is required")
    XCTAssertEqual(try podcast("mark", show.feedURL, "1", "--skip", "--new").status, 64)
  }
}
