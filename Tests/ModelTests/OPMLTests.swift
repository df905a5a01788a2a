import Feeds
import Foundation
import Model
import XCTest

final class OPMLTests: XCTestCase {
  private func parse(_ text: String) throws -> [OPMLEntry] {
    try OPML.parse(Data(text.utf8))
  }

  func testNestedOutlinesInAnyCaseAreRead() throws {
    let entries = try parse(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <opml version="1.0">
        <head><title>Pocket Casts Feeds</title></head>
        <body>
          <outline text="feeds">
            <outline type="rss" text="First &amp; Best" xmlUrl="https://a.example/feed.xml"/>
            <outline text="Folder">
              <outline text="Deep"><outline type="rss" title="Third" xmlurl="http://c.example/rss"/></outline>
            </outline>
          </outline>
          <outline type="rss" text="Second" XMLURL="https://b.example/podcast"/>
        </body>
      </opml>
      """)
    XCTAssertEqual(
      entries,
      [
        OPMLEntry(title: "First & Best", feedURL: "https://a.example/feed.xml"),
        OPMLEntry(title: "Third", feedURL: "http://c.example/rss"),
        OPMLEntry(title: "Second", feedURL: "https://b.example/podcast"),
      ])
  }

  func testDuplicatesAndNonHTTPFeedsAreDropped() throws {
    let entries = try parse(
      """
      <opml version="2.0"><body>
        <outline text="A" xmlUrl="https://a.example/feed"/>
        <outline text="A again" xmlUrl="https://a.example/feed"/>
        <outline text="Local" xmlUrl="file:///etc/passwd"/>
        <outline text="FTP" xmlUrl="ftp://x.example/feed"/>
        <outline text="Untitled" xmlUrl=" https://b.example/feed "/>
      </body></opml>
      """)
    XCTAssertEqual(entries.map(\.feedURL), ["https://a.example/feed", "https://b.example/feed"])
    XCTAssertEqual(entries.first?.title, "A")
  }

  func testCorruptAndForeignFilesAreClearErrors() {
    XCTAssertThrowsError(try parse("")) { XCTAssertEqual($0 as? OPMLError, .empty) }
    XCTAssertThrowsError(try OPML.parse(Data([0x00, 0xFF, 0xFE, 0x12, 0x80]))) { error in
      guard case .malformed = error as? OPMLError else { return XCTFail("\(error)") }
    }
    XCTAssertThrowsError(
      try parse("<rss version=\"2.0\"><channel><title>x</title></channel></rss>")
    ) {
      XCTAssertEqual($0 as? OPMLError, .notOPML(rootElement: "rss"))
    }
    XCTAssertThrowsError(try parse("<opml><body><outline text=\"folder\"/></body></opml>")) {
      XCTAssertEqual($0 as? OPMLError, .noFeeds)
    }
  }

  func testATruncatedExportKeepsTheFeedsBeforeTheBreak() throws {
    let entries = try parse(
      "<opml><body><outline text=\"A\" xmlUrl=\"https://a.example/f\"/><outline text=\"B\" xmlU")
    XCTAssertEqual(entries.map(\.feedURL), ["https://a.example/f"])
  }

  func testAnExternalEntityIsNeitherFetchedNorFatal() throws {
    let entries = try parse(
      """
      <?xml version="1.0"?>
      <!DOCTYPE opml [<!ENTITY ext SYSTEM "file:///etc/hostname">]>
      <opml><head><title>&ext;</title></head>
      <body><outline text="x" xmlUrl="https://a.example/f"/></body></opml>
      """)
    XCTAssertEqual(entries, [OPMLEntry(title: "x", feedURL: "https://a.example/f")])
  }

  func testExportParsesBackToTheSameFeeds() throws {
    let subscriptions = [
      Subscription(
        id: 1, name: "a", feedURL: "https://a.example/feed?x=1&y=2", title: "Tom & \"Jerry\" <3>"),
      Subscription(id: 2, name: "b-name", feedURL: "https://b.example/rss", title: nil, keep: 3),
    ]
    let document = OPML.export(subscriptions, created: Date(timeIntervalSince1970: 1_714_557_600))
    XCTAssertTrue(document.contains("<dateCreated>Wed, 01 May 2024 10:00:00 +0000</dateCreated>"))
    XCTAssertTrue(document.contains(#"<opml version="2.0""#))
    XCTAssertTrue(document.contains("a.example/feed?x=1&amp;y=2"))
    XCTAssertEqual(
      try OPML.parse(Data(document.utf8)),
      [
        OPMLEntry(
          title: "Tom & \"Jerry\" <3>", feedURL: "https://a.example/feed?x=1&y=2", name: "a"),
        OPMLEntry(title: "b-name", feedURL: "https://b.example/rss", name: "b-name", keep: 3),
      ])
  }

  func testOlderExportsAttributesStillImport() throws {
    let entries = try OPML.parse(
      Data(
        #"<opml version="2.0"><body><outline type="rss" xmlUrl="https://a.example/f" podcastName="old" podcastKeep="4"/></body></opml>"#
          .utf8))
    XCTAssertEqual(entries.first?.name, "old")
    XCTAssertEqual(entries.first?.keep, 4)
  }

  func testSettingsThatDoNotParseAreLeftOut() throws {
    let entries = try OPML.parse(
      Data(
        #"<opml version="2.0" xmlns:podcast="urn:x"><body><outline type="rss" xmlUrl="https://a.example/f" podcast:match="(" podcast:first="some" podcast:episodeType="bonus" podcast:concurrency="2"/></body></opml>"#
          .utf8))
    let settings = try XCTUnwrap(entries.first?.settings)
    XCTAssertNil(settings.filter.match)
    XCTAssertNil(settings.first)
    XCTAssertEqual(settings.filter.type, "bonus")
    XCTAssertEqual(settings.concurrency, 2)
  }
}
