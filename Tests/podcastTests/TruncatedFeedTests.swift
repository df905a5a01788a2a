import Foundation
import LoopbackServer
import XCTest

/// A feed cut short (the first part of a large feed, a server that stops mid-document) or
/// broken off mid-item is a failed fetch, never the truth: `sync` exits 1 naming the feed,
/// keeps the last good copy, renames nothing and marks no episode gone; `episodes` of a URL
/// says so and exits 1; `episodes` of a subscription lists the kept copy.
final class TruncatedFeedTests: LibraryTestCase {
  private func episodes(_ name: String) throws -> (
    podcast: [String: Any], episodes: [[String: Any]]
  ) {
    let result = try binary.run(["episodes", name, "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let document = try XCTUnwrap(try result.json() as? [String: Any])
    return (
      try XCTUnwrap(document["podcast"] as? [String: Any]),
      try XCTUnwrap(document["episodes"] as? [[String: Any]])
    )
  }

  func testASyncOfAFeedCutShortFailsAndChangesNothing() throws {
    let show = Show("whole", episodes: 30, size: 1_000, on: server)
    try subscribe(show)
    XCTAssertEqual(try podcast("sync").status, 0)
    let xml = FeedFixture.rss(title: "whole show", episodes: show.episodes, base: server.baseURL)
    let before = try episodes("whole")
    XCTAssertEqual(before.episodes.count, 30)

    let cut = String(decoding: Array(xml.utf8.prefix(xml.utf8.count * 2 / 5)), as: UTF8.self)
    for (what, body) in [
      ("the first part of the feed", cut),
      ("a feed broken off mid-item", "<rss><channel><title>x</title><item><title>bad"),
    ] {
      server.set(show.feedPath, .text(body, contentType: "application/rss+xml").withETag("\"cut\""))
      let sync = try podcast("sync")
      XCTAssertEqual(sync.status, 1, "\(what): \(sync.stdout)\(sync.stderr)")
      let failure = sync.stderrLines.filter { $0.contains("cut short") }
      XCTAssertEqual(failure.count, 1, "\(what): \(sync.stderr)")
      XCTAssertTrue(failure.first?.contains(show.feedURL) == true, "names the feed: \(sync.stderr)")
      XCTAssertTrue(sync.stdout.contains("1 failed"), "\(what): \(sync.stdout)")

      let row = try XCTUnwrap(try subscriptions().first)
      XCTAssertEqual(row["title"] as? String, "whole show", "\(what): not renamed")
      XCTAssertTrue((row["lastError"] as? String)?.contains("cut short") == true, "\(row)")
      let after = try episodes("whole")
      XCTAssertEqual(after.podcast["title"] as? String, "whole show")
      XCTAssertEqual(after.episodes.count, 30, "\(what): listed from the kept copy")
      XCTAssertEqual(
        after.episodes.filter { $0["inFeed"] as? Bool == false }.count, 0, "none marked gone")
      XCTAssertEqual(
        after.episodes.map { $0["guid"] as? String }, before.episodes.map { $0["guid"] as? String })
    }
    XCTAssertEqual(binary.episodeFiles().count, 1, "nothing downloaded from a cut feed")

    // The whole feed again: all is as it was, and the failure is gone.
    show.serve()
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertNil(try XCTUnwrap(try subscriptions().first)["lastError"] as? String)
  }

  func testEpisodesOfAFeedCutShortIsAnError() throws {
    let show = Show("direct", episodes: 5, on: server)
    let xml = FeedFixture.rss(title: "direct show", episodes: show.episodes, base: server.baseURL)
    server.set(
      show.feedPath, .text(String(xml.dropLast(30)), contentType: "application/rss+xml"))
    let listed = try podcast("episodes", show.feedURL)
    XCTAssertEqual(listed.status, 1, listed.stdout)
    XCTAssertEqual(listed.stderrLines.count, 1, listed.stderr)
    XCTAssertTrue(listed.stderr.contains(show.feedURL), listed.stderr)
    XCTAssertTrue(
      listed.stderr.contains("before its <rss> closes: it was cut short"), listed.stderr)
    XCTAssertEqual(listed.stdout, "")
  }
}
