import FeedsTestSupport
import Foundation
import Source
import Transfer
import XCTest

final class FeedLoaderTests: XCTestCase {
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
