import Feeds
import Search
import Source
import Transfer
import XCTest

final class FeedSourceTests: XCTestCase {
  func testClassifiesEveryKindOfFeedArgument() throws {
    XCTAssertEqual(
      try FeedSource.classify("https://example.com/feed.xml"), .url("https://example.com/feed.xml"))
    XCTAssertEqual(try FeedSource.classify("itunes:173001861"), .applePodcasts(id: "173001861"))
    XCTAssertEqual(
      try FeedSource.classify(
        "https://podcasts.apple.com/us/podcast/hardcore-history/id173001861?i=1000"),
      .applePodcasts(id: "173001861"))
    XCTAssertEqual(try FeedSource.classify("file:///tmp/x.xml"), .file(path: "/tmp/x.xml"))
    XCTAssertEqual(try FeedSource.classify("/"), .file(path: "/"))
    XCTAssertEqual(try FeedSource.classify("hh"), .subscription("hh"))
    XCTAssertEqual(try FeedSource.classify("3"), .subscription("3"))
    XCTAssertEqual(
      try FeedSource.classify("podcastindex:920666"), .directory(.podcastIndexFeed(920_666)))
    XCTAssertEqual(
      try FeedSource.classify("guid:917393e3-1b1e-5cef-ace4-edaa54e1f810"),
      .directory(.podcastGUID("917393e3-1b1e-5cef-ace4-edaa54e1f810")))
    XCTAssertEqual(try FeedSource.classify("fyyd:85"), .directory(.fyydPodcast(85)))
  }

  func testRefusesWhatCannotBeAFeed() {
    XCTAssertThrowsError(try FeedSource.classify("ftp://example.com/feed.xml"))
    XCTAssertThrowsError(try FeedSource.classify("javascript://alert(1)"))
    XCTAssertThrowsError(try FeedSource.classify("itunes:abc"))
    XCTAssertThrowsError(try FeedSource.classify("podcastindex:abc"))
    XCTAssertThrowsError(try FeedSource.classify("fyyd:"))
    XCTAssertThrowsError(try FeedSource.classify("./missing/feed.xml"))
  }

  /// Sync, link refresh, naming and `subscribe` all ask this one question of a stored location.
  func testAStoredLocationIsRemoteOnlyWhenItStartsWithAScheme() {
    XCTAssertTrue(FeedLocation.isRemote("https://example.com/feed.xml"))
    XCTAssertTrue(FeedLocation.isRemote("HTTP://example.com/feed.xml"))
    XCTAssertFalse(FeedLocation.isRemote("/home/me/feeds/show.xml"))
    // A local path may hold "://" in a folder name; it is still a file.
    XCTAssertFalse(FeedLocation.isRemote("/home/me/odd://name/feed.xml"))
  }

  func testURLPolicyAllowsOnlyHTTP() {
    XCTAssertTrue(URLPolicy.isAllowed("http://a.example/x"))
    XCTAssertTrue(URLPolicy.isAllowed("HTTPS://a.example/x"))
    for url in [
      "file:///etc/passwd", "ftp://a/x", "gopher://a/", "javascript:alert(1)", "http://",
      "relative/path",
    ] {
      XCTAssertFalse(URLPolicy.isAllowed(url), url)
    }
  }
}
