import Foundation
import LoopbackServer
import XCTest

/// `--limit-rate`: libcurl's receive limit, one budget shared by a run's downloads. Only lower
/// bounds on time are asserted (a slow machine may take longer; it must never be faster).
final class RateLimitTests: LibraryTestCase {
  /// `500k` is 500 KiB/s, as in curl; at most 10% over it means at least this long.
  private func shortest(bytes: Int, rate: Double) -> TimeInterval {
    Double(bytes) / (rate * 1.1)
  }

  func testFiveMegabytesAt500kTakeAtLeastNineSeconds() throws {
    let episode = FeedFixture.episodes(1, size: 5_000_000)[0]
    let feedURL = FeedFixture.serve([episode], on: server)
    let started = Date()
    let result = try podcast("download", feedURL, "--limit-rate", "500k", timeout: 60)
    let elapsed = Date().timeIntervalSince(started)
    XCTAssertEqual(result.status, 0, result.stderr)
    assertEpisodeFiles([episode])
    let floor = shortest(bytes: 5_000_000, rate: 500 * 1_024)
    XCTAssertGreaterThanOrEqual(elapsed, floor, "5 MB arrived faster than 500k allows")
    print("5,000,000 bytes at --limit-rate 500k: \(elapsed) s (floor \(floor) s)")
  }

  func testASubscriptionsLimitIsSharedByItsConcurrentDownloads() throws {
    let show = Show("slow", episodes: 2, size: 1_000_000, on: server)
    let subscribed = try podcast(
      "subscribe", show.feedURL, "--name", "slow", "--first", "all", "--concurrency", "2",
      "--limit-rate", "500k")
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    let started = Date()
    let result = try podcast("sync", timeout: 60)
    let elapsed = Date().timeIntervalSince(started)
    XCTAssertEqual(result.status, 0, result.stderr)
    assertEpisodeFiles([show.episode(1), show.episode(2)])
    // Each download alone at 500k would finish both in half this.
    let floor = shortest(bytes: 2_000_000, rate: 500 * 1_024)
    XCTAssertGreaterThanOrEqual(elapsed, floor, "two downloads together beat the shared 500k")
    print("2 x 1,000,000 bytes sharing 500k: \(elapsed) s (floor \(floor) s)")
  }

  func testTheLowerOfTheRunsAndTheSubscriptionsLimitApplies() throws {
    let show = Show("capped", episodes: 2, size: 250_000, on: server)
    let subscribed = try podcast(
      "subscribe", show.feedURL, "--name", "capped", "--first", "all", "--limit-rate", "2M")
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    let started = Date()
    let result = try podcast("sync", "--limit-rate", "250k", timeout: 60)
    let elapsed = Date().timeIntervalSince(started)
    XCTAssertEqual(result.status, 0, result.stderr)
    assertEpisodeFiles([show.episode(1), show.episode(2)])
    let floor = shortest(bytes: 500_000, rate: 250 * 1_024)
    XCTAssertGreaterThanOrEqual(elapsed, floor, "the run's 250k did not cap the subscription's 2M")
    print("2 x 250,000 bytes, sync --limit-rate 250k over a 2M subscription: \(elapsed) s")
  }
}
