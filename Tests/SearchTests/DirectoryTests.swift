import Search
import XCTest

/// What users type for `--directory` and as a FEED naming a directory's show.
final class DirectoryTests: XCTestCase {
  func testDirectoryListsByNameOrAll() throws {
    XCTAssertEqual(try Directory.list(parsing: "apple"), [.apple])
    XCTAssertEqual(try Directory.list(parsing: "fyyd, GPodder"), [.fyyd, .gpodder])
    XCTAssertEqual(try Directory.list(parsing: "all"), [.apple, .podcastindex, .fyyd, .gpodder])
    XCTAssertEqual(
      try Directory.list(parsing: "gpodder,all,apple"), [.gpodder, .apple, .podcastindex, .fyyd],
      "each once, in the order first named")
  }

  func testAnUnknownDirectoryIsNamed() {
    for (text, name) in [
      ("itunes", "itunes"), ("apple,,fyyd", ""), ("apple, podcast index", "podcast index"),
    ] {
      XCTAssertThrowsError(try Directory.list(parsing: text)) { error in
        XCTAssertEqual(error as? SearchError, .unknownDirectory(name), text)
      }
    }
    XCTAssertEqual(
      SearchError.unknownDirectory("itunes").description,
      "'itunes' is not a directory: choose from apple, podcastindex, fyyd, gpodder, or all")
  }

  func testReferencesToADirectorysShow() throws {
    XCTAssertEqual(try DirectoryReference.parse("podcastindex:920666"), .podcastIndexFeed(920_666))
    XCTAssertEqual(try DirectoryReference.parse(" PodcastIndex:41504 "), .podcastIndexFeed(41504))
    XCTAssertEqual(try DirectoryReference.parse("fyyd:85"), .fyydPodcast(85))
    XCTAssertEqual(
      try DirectoryReference.parse("guid:917393e3-1b1e-5cef-ace4-edaa54e1f810"),
      .podcastGUID("917393e3-1b1e-5cef-ace4-edaa54e1f810"))
    XCTAssertNil(try DirectoryReference.parse("https://example.com/feed.xml"))
    XCTAssertNil(try DirectoryReference.parse("itunes:123"))
    XCTAssertNil(try DirectoryReference.parse("guidance"), "a subscription's name")
    XCTAssertEqual(DirectoryReference.podcastIndexFeed(7).shortForm, "podcastindex:7")
  }

  func testAPrefixWithoutAnIDIsAnError() {
    for text in ["podcastindex:", "podcastindex:abc", "fyyd:-3", "fyyd:0", "guid:", "guid:a b"] {
      XCTAssertThrowsError(try DirectoryReference.parse(text)) { error in
        XCTAssertEqual(error as? SearchError, .invalidReference(text), text)
      }
    }
  }
}
