import Feeds
import FeedsTestSupport
import Foundation
import XCTest

/// RFC 5005 paging links: read from the channel (RSS) or the feed (Atom), resolved, never from
/// an item.
final class FeedPageLinksTests: XCTestCase {
  typealias S = FeedTestSupport

  func testRSSChannelLinksAreReadAndResolvedAgainstThePage() throws {
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
      <channel><title>Paged</title>
        <link>https://example.com/</link>
        <atom:link rel="self" type="application/rss+xml" href="https://example.com/feed/mp3/?paged=2"/>
        <atom:link rel="first" href="https://example.com/feed/mp3/"/>
        <atom:link rel="prev" href="/feed/mp3/"/>
        <atom:link rel="next" href="?paged=3"/>
        <atom:link rel="last" href="https://example.com/feed/mp3/?paged=9"/>
        \(S.item("One", extra: #"<atom:link rel="next" href="https://example.com/not-a-page"/>"#))
      </channel></rss>
      """
    let feed = try S.parse(xml, baseURL: "https://example.com/feed/mp3/?paged=2")
    XCTAssertEqual(
      feed.pageLinks,
      FeedPageLinks(
        first: "https://example.com/feed/mp3/", next: "https://example.com/feed/mp3/?paged=3",
        previous: "https://example.com/feed/mp3/", last: "https://example.com/feed/mp3/?paged=9"))
    XCTAssertEqual(feed.podcast.link, "https://example.com/", "paging links are not the site")
    XCTAssertEqual(feed.episodes.count, 1)
  }

  func testAtomFeedLinksAreRead() throws {
    let xml = """
      <?xml version="1.0" encoding="utf-8"?>
      <feed xmlns="http://www.w3.org/2005/Atom">
        <title>Atom Paged</title>
        <link rel="alternate" href="https://example.org/"/>
        <link rel="Next" href="https://example.org/feed.atom?page=2"/>
        <entry><title>E</title><id>e</id><updated>2024-05-01T10:00:00Z</updated>
          <link rel="enclosure" href="https://example.org/e.mp3" type="audio/mpeg"/>
          <link rel="next" href="https://example.org/entry-next"/>
        </entry>
      </feed>
      """
    let feed = try S.parse(xml, baseURL: "https://example.org/feed.atom")
    XCTAssertEqual(feed.pageLinks.next, "https://example.org/feed.atom?page=2")
    XCTAssertNil(feed.pageLinks.first)
    XCTAssertEqual(feed.podcast.link, "https://example.org/")
  }

  func testAFeedWithoutPagingHasNoLinks() throws {
    let feed = try S.parse(S.rss(S.item("Only")))
    XCTAssertEqual(feed.pageLinks, FeedPageLinks())
  }
}
