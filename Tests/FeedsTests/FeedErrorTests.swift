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

  /// A document that stops before its root element closes was cut short (on the way, or by
  /// the server): what came before the cut is not the feed, and would hide every later
  /// episode, so it is an error, wherever the cut falls.
  func testAFeedCutShortIsTruncatedWhereverTheCutFalls() throws {
    let full = S.rss(
      (1...40).map { S.item("Episode \($0)", date: "Sat, 01 Jan 2022 00:00:00 GMT") }.joined())
    XCTAssertEqual(try S.parse(full).episodes.count, 40)
    for cut in [300, 1_000, full.utf8.count / 2, full.utf8.count - 20, full.utf8.count - 3] {
      let prefix = String(decoding: Array(full.utf8.prefix(cut)), as: UTF8.self)
      XCTAssertThrowsError(try S.parse(prefix), "cut at \(cut)") { error in
        XCTAssertEqual(error as? FeedError, .truncated(bytes: cut, root: "rss"), "cut at \(cut)")
      }
    }
    XCTAssertThrowsError(try S.parse("<rss><channel><title>x</title><item><title>bad")) {
      XCTAssertEqual($0 as? FeedError, .truncated(bytes: 46, root: "rss"))
    }
    let atom = """
      <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><entry><title>One</title>
      <link rel="enclosure" href="https://e.com/1.mp3"/></entry><entry><title>Tw
      """
    XCTAssertThrowsError(try S.parse(atom)) {
      guard case .truncated(_, "feed")? = $0 as? FeedError else { return XCTFail("\($0)") }
    }
    XCTAssertEqual(
      FeedError.truncated(bytes: 200_000, root: "rss").description,
      "the feed ends after 200000 bytes, before its <rss> closes: it was cut short")
  }

  /// Whole documents that are not well-formed stay readable: their root element's end tag is
  /// there, whatever went wrong inside, and comments may follow it.
  func testAWholeButBrokenDocumentIsNotTakenForACutOne() throws {
    let stray = S.rss(
      "<item><title>Broken <b>bold</title><enclosure url=\"https://e.com/1.mp3\"/></item>"
        + S.item("Fine"))
    XCTAssertTrue(try S.parse(stray).episodes.contains { $0.title == "Fine" })
    let commented = S.rss(S.item("One")) + "\n<!-- served from cache -->\n"
    XCTAssertEqual(try S.parse(commented).episodes.count, 1)
    let shouting = S.rss(S.item("One")).replacingOccurrences(of: "</rss>", with: "</RSS >")
    XCTAssertEqual(try S.parse(shouting).episodes.count, 1)
    let rdf = """
      <?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
      xmlns="http://purl.org/rss/1.0/"><channel><title>R</title></channel>
      <item><title>One <i>x</title><enclosure url="https://e.com/1.mp3"/></item></rdf:RDF>
      """
    XCTAssertNoThrow(try S.parse(rdf))
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
