import Foundation
import Search
import XCTest

/// Decoding what Apple really sends.
final class ITunesResponseTests: XCTestCase {
  func testSearchAnswerMapsApplesFieldsToResults() throws {
    let podcasts = try ITunesResponse.decode(ITunesFixture.data("search-cars.json")).podcasts

    XCTAssertEqual(podcasts.count, 3, "results wins over a resultCount of 50")
    XCTAssertEqual(
      podcasts[0],
      SearchResult(
        iTunesID: 253_191_823, title: "Car Talk", author: "NPR",
        feedURL: "https://www.npr.org/rss/podcast.php?id=510208", episodeCount: 2,
        genre: "Automotive",
        artworkURL: "http://is5.mzstatic.com/image/thumb/car-talk/600x600bb.jpg",
        storeURL: "https://itunes.apple.com/us/podcast/car-talk/id253191823?mt=2&uo=4",
        releaseDate: Date(timeIntervalSince1970: 1_498_327_200),
        lastPublished: Date(timeIntervalSince1970: 1_498_327_200), directories: [.apple]))
  }

  func testMissingOptionalFieldsStayUnknown() throws {
    let podcasts = try ITunesResponse.decode(ITunesFixture.data("search-cars.json")).podcasts

    let withoutFeed = podcasts[1]
    XCTAssertEqual(withoutFeed.title, "Members Only Motoring")
    XCTAssertNil(withoutFeed.feedURL)
    XCTAssertFalse(withoutFeed.isDownloadable)
    XCTAssertEqual(
      withoutFeed.artworkURL, "http://is1.mzstatic.com/image/thumb/members/100x100bb.jpg")

    let sparse = podcasts[2]
    XCTAssertEqual(sparse.title, "On Cars (HD)")
    XCTAssertNil(sparse.episodeCount)
    XCTAssertEqual(sparse.genre, "Automotive", "the umbrella genre Podcasts is skipped")
    XCTAssertEqual(sparse.artworkURL, "http://is2.mzstatic.com/image/thumb/on-cars/60x60bb.jpg")
    XCTAssertEqual(
      sparse.storeURL, "https://itunes.apple.com/us/podcast/on-cars-hd/id555384933?mt=2&uo=4")
    XCTAssertEqual(sparse.releaseDate, Date(timeIntervalSince1970: 1_498_028_400))
  }

  func testArtistsEpisodesSongsAndBrokenEntriesAreSkipped() throws {
    let podcasts = try ITunesResponse.decode(ITunesFixture.data("search-mixed.json")).podcasts

    XCTAssertEqual(podcasts.map(\.iTunesID), [1_234_567_890])
  }

  func testOddlyTypedFieldsCountAsMissing() throws {
    let podcast = try XCTUnwrap(
      ITunesResponse.decode(ITunesFixture.data("search-mixed.json")).podcasts.first)

    XCTAssertEqual(podcast.title, "Späti & Co", "whitespace around names is trimmed")
    XCTAssertNil(podcast.author, "an empty string is unknown, not \"\"")
    XCTAssertNil(podcast.feedURL, "only http and https feeds can be downloaded")
    XCTAssertNil(podcast.episodeCount)
    XCTAssertNil(podcast.releaseDate)
    XCTAssertNil(podcast.genre)
  }

  func testLookupAnswerWithNonASCIITitle() throws {
    let podcast = try XCTUnwrap(
      ITunesResponse.decode(ITunesFixture.data("lookup-537879700.json")).podcasts.first)

    XCTAssertEqual(podcast.iTunesID, 537_879_700)
    XCTAssertEqual(podcast.title, "Seminargespräche")
    XCTAssertEqual(podcast.feedURL, "http://feeds.example.com/forum-politische-bildung")
  }

  func testBlankLinesBeforeAnEmptyResultList() throws {
    XCTAssertEqual(try ITunesResponse.decode(ITunesFixture.data("empty.json")).podcasts, [])
  }

  func testAnHTMLPageIsNamedAsSuch() throws {
    XCTAssertThrowsError(try ITunesResponse.decode(ITunesFixture.data("error-page.html"))) {
      XCTAssertEqual($0 as? ITunesResponse.Unreadable, .htmlPage)
    }
  }

  func testTruncatedJSONIsAnErrorNotACrash() throws {
    XCTAssertThrowsError(try ITunesResponse.decode(ITunesFixture.data("truncated.json"))) {
      XCTAssertEqual(
        $0 as? ITunesResponse.Unreadable, .notJSON("the JSON is cut short or malformed"))
    }
  }

  func testJSONOfTheWrongShape() {
    for body in [
      #"{"errorMessage":"Invalid value(s) for key(s): [country]"}"#, "[1,2]", #"{"results":{}}"#,
    ] {
      XCTAssertThrowsError(try ITunesResponse.decode(Data(body.utf8)), body) {
        XCTAssertEqual($0 as? ITunesResponse.Unreadable, .noResultsArray, body)
      }
    }
  }

  func testEmptyBody() {
    XCTAssertThrowsError(try ITunesResponse.decode(Data("\n\n".utf8))) {
      XCTAssertEqual($0 as? ITunesResponse.Unreadable, .empty)
    }
  }
}
