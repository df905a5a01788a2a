import Downloads
import Foundation
import LoopbackServer
import Model
import Source
import Transfer
import XCTest

/// A refused signed link looked up again in the feed: on any page of a paged feed.
final class LinkRefresherTests: XCTestCase {
  func testAnEpisodeOnTheSecondPageOfAPagedFeedGetsItsFreshLink() async throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    func page(guid: String, link: String, next: String?) -> String {
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Paid</title>
      \(next.map { #"<atom:link rel="next" href="\#($0)"/>"# } ?? "")
      <item><title>\(guid)</title><guid>\(guid)</guid>
      <enclosure url="\(link)" length="1000" type="audio/mpeg"/></item>
      </channel></rss>
      """
    }
    server.set(
      "/feed", .text(page(guid: "new", link: server.url("/new.mp3?sig=1"), next: "?page=2")))
    server.set(
      "/feed?page=2", .text(page(guid: "old", link: server.url("/old.mp3?sig=2"), next: nil)))
    let key = EpisodeIdentity.key(guid: "old", enclosureURL: nil, title: nil, published: nil)
    let job = DownloadJob(
      url: server.url("/old.mp3?sig=1"), title: "old", podcastTitle: "Paid",
      relativePath: "Paid/old.mp3", mimeType: "audio/mpeg", feedURL: server.url("/feed"),
      identityKeys: [key])
    let refresher = LinkRefresher(loader: FeedLoader(http: HTTPClient()))
    let fresh = await refresher.currentURL(for: job)
    XCTAssertEqual(fresh, server.url("/old.mp3?sig=2"))
  }
}
