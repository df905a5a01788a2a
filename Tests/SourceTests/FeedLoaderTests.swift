import FeedsTestSupport
import Foundation
import LoopbackServer
import Source
import Transfer
import XCTest

/// Loading a feed: from a file, and from a server that fails, which is tried again by the rule
/// episodes are (`RetryPolicy`): a server's `Retry-After` is what the next try waits for, up to
/// the cap, and past it the feed fails at once.
final class FeedLoaderTests: XCTestCase {
  private var server: LoopbackServer!

  override func setUpWithError() throws {
    server = try LoopbackServer()
  }

  override func tearDown() {
    server.stop()
  }

  private let feed = """
    <?xml version="1.0"?><rss version="2.0"><channel><title>Show</title>
    <item><title>E1</title><guid>e1</guid><enclosure url="http://example.com/e1.mp3" type="audio/mpeg"/></item>
    </channel></rss>
    """

  /// The server's word replaces the back-off: told "now", the loader does not sit out its
  /// hour-long pause first.
  func testAFeedsRetryAfterIsWaitedInsteadOfTheBackOff() async throws {
    server.set(
      "/feed",
      .sequence([
        .status(503).withHeader("Retry-After", "0"),
        .text(feed, contentType: "application/rss+xml"),
      ]))
    let loader = FeedLoader(http: HTTPClient())
    let fetched = try await loader.fetchWhole(
      url: server.url("/feed"), retry: RetryPolicy(attempts: 2, delay: .seconds(3600)))
    XCTAssertEqual(fetched.feed.episodes.map(\.title), ["E1"])
    XCTAssertEqual(server.requests(for: "/feed").count, 2)
  }

  func testAFeedAskingForMoreThanTheCapFailsWithoutWaiting() async throws {
    server.set("/feed", .status(503).withHeader("Retry-After", "121"))
    let loader = FeedLoader(http: HTTPClient())
    do {
      _ = try await loader.fetchWhole(
        url: server.url("/feed"), retry: RetryPolicy(attempts: 3, maxRetryAfter: 120))
      XCTFail("a 503 is not a feed")
    } catch TransferError.httpStatus(_, let status, let retryAfter) {
      XCTAssertEqual(status, 503)
      XCTAssertEqual(retryAfter, 121)
    }
    XCTAssertEqual(server.requests(for: "/feed").count, 1, "no second try")
  }

  func testALocalFeedListsRelativeEpisodesAsFileURLs() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("feed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("show.xml").path
    try FeedTestSupport.rss(
      """
      <item><title>Relative</title><enclosure url="ep1.mp3" type="audio/mpeg"/></item>
      <item><title>Protocol-relative</title><enclosure url="//cdn.example.com/ep2.mp3" type="audio/mpeg"/></item>
      <item><title>Hostile</title><enclosure url="file:///etc/passwd" type="audio/mpeg"/></item>
      """
    ).write(toFile: path, atomically: true, encoding: .utf8)

    let feed = try FeedLoader().load(file: path)
    XCTAssertEqual(feed.podcast.feedURL, path)
    XCTAssertEqual(
      feed.episodes.map(\.enclosure.url),
      [
        directory.appendingPathComponent("ep1.mp3").absoluteString,
        "https://cdn.example.com/ep2.mp3",
      ],
      "a file: URL the feed itself writes is still never an episode")
    let relative = try XCTUnwrap(feed.episodes.first)
    XCTAssertThrowsError(try URLPolicy.check(relative.enclosure.url)) { error in
      XCTAssertTrue("\(error)".contains("relative link"), "\(error)")
    }
  }
}
