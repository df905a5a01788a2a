import Foundation
import Model
import XCTest

final class EpisodeIdentityTests: XCTestCase {
  private func urlKey(_ url: String) -> String {
    EpisodeIdentity.key(guid: nil, enclosureURL: url, title: nil, published: nil)
  }

  func testGUIDWinsOverURLAndTitle() {
    XCTAssertEqual(
      EpisodeIdentity.key(
        guid: " abc-1 ", enclosureURL: "https://x.example/a.mp3", title: "T", published: nil),
      "guid:abc-1")
    XCTAssertEqual(
      EpisodeIdentity.key(
        guid: "  ", enclosureURL: "https://x.example/a.mp3", title: "T", published: nil),
      "url:x.example/a.mp3")
  }

  func testTitleAndDateWhenThereIsNothingElse() {
    let date = Date(timeIntervalSince1970: 1_714_557_600)
    XCTAssertEqual(
      EpisodeIdentity.key(guid: nil, enclosureURL: nil, title: "Episode 1", published: date),
      "title:Episode 1|2024-05-01T10:00:00Z")
    XCTAssertEqual(
      EpisodeIdentity.key(guid: nil, enclosureURL: "", title: "Episode 1", published: nil),
      "title:Episode 1|")
  }

  func testQueryFragmentSchemeAndHostCaseDoNotMatter() {
    XCTAssertEqual(
      urlKey("HTTPS://CDN.Example.com/Show/Ep1.mp3?utm_source=rss#t=10"),
      "url:cdn.example.com/Show/Ep1.mp3")
    XCTAssertEqual(
      urlKey("http://cdn.example.com/Show/Ep1.mp3"), "url:cdn.example.com/Show/Ep1.mp3")
    // The scheme ends at the first "://": a port's colon before it, or a URL in the query
    // after it, is not one.
    XCTAssertEqual(
      urlKey("https://CDN.example.com:8443/a.mp3?from=https://other.example/b.mp3"),
      "url:cdn.example.com:8443/a.mp3")
    XCTAssertEqual(urlKey("cdn.example.com:8443/a:b//c.mp3"), "url:cdn.example.com:8443/a:b//c.mp3")
  }

  func testTrackingPrefixesAreStrippedEvenWhenChained() {
    let expected = "url:traffic.example.com/show/ep1.mp3"
    for url in [
      "https://dts.podtrac.com/redirect.mp3/traffic.example.com/show/ep1.mp3",
      "https://www.podtrac.com/pts/redirect.mp3/traffic.example.com/show/ep1.mp3",
      "https://chtbl.com/track/ABC123/traffic.example.com/show/ep1.mp3",
      "https://pdst.fm/e/traffic.example.com/show/ep1.mp3",
      "https://chrt.fm/track/9F8E/traffic.example.com/show/ep1.mp3",
      "https://mgln.ai/e/12/traffic.example.com/show/ep1.mp3",
      "https://op3.dev/e/traffic.example.com/show/ep1.mp3",
      "https://op3.dev/e,pg=123e4567/traffic.example.com/show/ep1.mp3",
      "https://pfx.vpixl.com/6qj4J/traffic.example.com/show/ep1.mp3",
      "https://arttrk.com/p/ABCD/traffic.example.com/show/ep1.mp3",
      "https://verifi.podscribe.com/rss/p/traffic.example.com/show/ep1.mp3",
      "https://prfx.byspotify.com/e/traffic.example.com/show/ep1.mp3",
      "https://claritaspod.com/measure/traffic.example.com/show/ep1.mp3",
      "https://tracking.swap.fm/track/xyz/traffic.example.com/show/ep1.mp3",
      "https://pscrb.fm/rss/p/traffic.example.com/show/ep1.mp3",
      "https://dts.podtrac.com/redirect.mp3/chtbl.com/track/ABC/pdst.fm/e/op3.dev/e/traffic.example.com/show/ep1.mp3?x=1",
      "https://pdst.fm/e/https://traffic.example.com/show/ep1.mp3",
      "https://pdst.fm/e/TRAFFIC.EXAMPLE.COM/show/ep1.mp3",
    ] {
      XCTAssertEqual(urlKey(url), expected, url)
    }
  }

  func testAFileHostedOnATrackerHostIsNotStripped() {
    XCTAssertEqual(urlKey("https://pdst.fm/e/episode.mp3"), "url:pdst.fm/e/episode.mp3")
    XCTAssertEqual(urlKey("https://op3.dev/about"), "url:op3.dev/about")
  }

  func testIdentityKeysListGUIDAndURL() {
    XCTAssertEqual(
      EpisodeIdentity.identityKeys(
        guid: "g", enclosureURL: "https://chtbl.com/track/1/a.example/b.mp3", title: "T",
        published: nil),
      ["guid:g", "url:a.example/b.mp3"])
    XCTAssertEqual(
      EpisodeIdentity.identityKeys(guid: nil, enclosureURL: nil, title: "T", published: nil),
      ["title:T|"])
  }
}
