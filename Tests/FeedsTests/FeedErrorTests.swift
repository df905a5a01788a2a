import Feeds
import FeedsTestSupport
import Foundation
import XCTest

/// Documents that are not usable feeds get an error that says why; broken feeds still give
/// what they can.
final class FeedErrorTests: XCTestCase {
  typealias S = FeedTestSupport

  func testEmptyBodyIsEmpty() {
    XCTAssertThrowsError(try S.parse("")) { XCTAssertEqual($0 as? FeedError, .empty) }
    XCTAssertThrowsError(try S.parse("  \n\t ")) { XCTAssertEqual($0 as? FeedError, .empty) }
  }

  func testGzipBytesAreNamedAsSuch() {
    // What a server sends when it compresses without a Content-Encoding header.
    let gzipped = Data([
      0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xB3, 0x29, 0x2A, 0xB6, 0x03,
      0x00,
    ])
    XCTAssertThrowsError(try FeedParser.parse(gzipped, baseURL: nil)) { error in
      XCTAssertEqual(error as? FeedError, .compressed)
    }
  }

  func testHTMLPageIsReportedAsHTML() {
    let pages = [
      "<!DOCTYPE html>\n<html><head><meta charset=utf-8><title>Shop</title></head><body><p>Hi<br></body></html>",
      "\u{FEFF}  <html lang=\"en\"><body>not closed",
      "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body/></html>",
    ]
    for page in pages {
      XCTAssertThrowsError(try S.parse(page), page) { XCTAssertEqual($0 as? FeedError, .htmlPage) }
    }
  }

  func testOtherXMLIsNotAFeed() {
    XCTAssertThrowsError(try S.parse("<?xml version=\"1.0\"?><opml version=\"2.0\"><body/></opml>"))
    {
      XCTAssertEqual($0 as? FeedError, .notAFeed(rootElement: "opml"))
    }
  }

  func testGarbageIsMalformedWithALine() {
    XCTAssertThrowsError(try S.parse("this is not xml at all")) { error in
      guard case .malformed(let line, let reason)? = error as? FeedError else {
        return XCTFail("expected malformed, got \(error)")
      }
      XCTAssertEqual(line, 1)
      XCTAssertFalse(reason.isEmpty)
    }
  }

  func testTruncatedBeforeTheChannelIsMalformed() {
    XCTAssertThrowsError(try S.parse("<?xml version=\"1.0\"?>\n<rss version=\"2.0\">\n<chan")) {
      error in
      guard case .malformed? = error as? FeedError else { return XCTFail("got \(error)") }
    }
  }

  func testTruncatedFeedKeepsTheEpisodesReadSoFar() throws {
    let full = S.rss(
      S.item("One", date: "Sat, 01 Jan 2022 00:00:00 GMT")
        + S.item("Two", date: "Sun, 02 Jan 2022 00:00:00 GMT"))
    let marker = try XCTUnwrap(full.range(of: "<item><title>Two"))
    let cut = String(full[..<marker.upperBound])
    let feed = try S.parse(cut)
    XCTAssertEqual(feed.episodes.map(\.title), ["One"])
  }

  func testStrayTagsStillYieldEpisodes() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>Broken <b>bold</title><enclosure url="https://e.com/1.mp3"/></item>
        \(S.item("Fine"))
        """))
    XCTAssertTrue(feed.episodes.contains { $0.title == "Fine" })
  }

  func testMissingFileIsUnreadable() {
    XCTAssertThrowsError(
      try FeedParser.parse(contentsOfFile: "/nonexistent/feed.xml", baseURL: nil)
    ) { error in
      guard case .unreadable(let path, _)? = error as? FeedError else {
        return XCTFail("got \(error)")
      }
      XCTAssertEqual(path, "/nonexistent/feed.xml")
    }
  }

  func testErrorsReadAsSentences() {
    XCTAssertEqual(FeedError.htmlPage.description, "this is an HTML page, not a feed")
    XCTAssertTrue(FeedError.malformed(line: 3, reason: "x").description.contains("line 3"))
  }
}
