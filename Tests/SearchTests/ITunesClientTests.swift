import Foundation
import Search
import Transfer
import XCTest

/// The client's requests and how it reports what can go wrong, over a fake transport.
final class ITunesClientTests: XCTestCase {
  func testSearchURLEncodesTheTermExactly() throws {
    let client = ITunesClient(baseURL: "https://itunes.apple.com")

    XCTAssertEqual(
      try client.searchURL(term: "Späti & Co", limit: 10, country: "US"),
      "https://itunes.apple.com/search?term=Sp%C3%A4ti+%26+Co&media=podcast&entity=podcast&limit=10&country=US"
    )
  }

  func testReservedCharactersCannotSplitTheQuery() throws {
    let client = ITunesClient(baseURL: "http://127.0.0.1:8080/")

    XCTAssertEqual(
      try client.searchURL(term: "a+b=c#d?e/f%", limit: 200, country: "de"),
      "http://127.0.0.1:8080/search?term=a%2Bb%3Dc%23d%3Fe%2Ff%25&media=podcast&entity=podcast&limit=200&country=DE"
    )
  }

  func testSearchAsksTheBaseURLAndReturnsPodcasts() async throws {
    let fake = try FakeITunes(fixture: "search-cars.json")

    let results = try await fake.client(baseURL: "http://127.0.0.1:9/api").search(
      term: "cars", limit: 50, country: "GB")

    XCTAssertEqual(results.map(\.iTunesID), [253_191_823, 668_624_357, 555_384_933])
    XCTAssertEqual(
      fake.requestedURLs,
      ["http://127.0.0.1:9/api/search?term=cars&media=podcast&entity=podcast&limit=50&country=GB"])
  }

  func testSearchNeverReturnsMoreThanTheLimit() async throws {
    let fake = try FakeITunes(fixture: "search-cars.json")

    let results = try await fake.client().search(term: "cars", limit: 2)

    XCTAssertEqual(results.map(\.iTunesID), [253_191_823, 668_624_357])
  }

  func testNoResultsIsAnEmptyArray() async throws {
    let results = try await FakeITunes(fixture: "empty.json").client().search(term: "zzzz")

    XCTAssertEqual(results, [])
  }

  func testBadArgumentsAreRejectedBeforeAnyRequest() async throws {
    let fake = try FakeITunes(fixture: "empty.json")
    let cases: [(String, Int, String, SearchError)] = [
      ("  ", 10, "US", .emptyTerm),
      ("cars", 0, "US", .limitOutOfRange(0)),
      ("cars", 500, "US", .limitOutOfRange(500)),
      ("cars", 10, "usa", .invalidCountry("usa")),
      ("cars", 10, "1a", .invalidCountry("1a")),
    ]
    for (term, limit, country, expected) in cases {
      await assertThrows(expected) {
        _ = try await fake.client().search(term: term, limit: limit, country: country)
      }
    }
    XCTAssertEqual(fake.requestedURLs, [])
  }

  func testRateLimitingNamesTheWaitApplesAsksFor() async {
    let url = "http://127.0.0.1:9/search"
    for status in [403, 429] {
      let fake = FakeITunes(.failure(.httpStatus(url: url, status: status, retryAfter: 30)))
      await assertThrows(.rateLimited(.apple, url: url, status: status, retryAfter: 30)) {
        _ = try await fake.client().search(term: "cars")
      }
    }
    XCTAssertEqual(
      SearchError.rateLimited(.apple, url: url, status: 429, retryAfter: 30).description,
      "the iTunes API is rate-limiting requests (HTTP 429 from \(url)); try again in 30 s")
  }

  func testServerErrorsAndTimeoutsAreUnavailable() async {
    let failures: [TransferError] = [
      .httpStatus(url: "http://127.0.0.1:9/search", status: 503, retryAfter: nil),
      .timedOut(url: "http://127.0.0.1:9/search", seconds: 30),
    ]
    for failure in failures {
      await assertThrows(.unavailable(.apple, failure)) {
        _ = try await FakeITunes(.failure(failure)).client().search(term: "cars")
      }
    }
  }

  func testHTMLInsteadOfJSONIsAClearError() async throws {
    let fake = try FakeITunes(fixture: "error-page.html")

    await assertThrows(
      .unreadableResponse(
        .apple,
        url: "http://127.0.0.1:9/search?term=cars&media=podcast&entity=podcast&limit=10&country=US",
        reason: "an HTML page instead of JSON")
    ) {
      _ = try await fake.client().search(term: "cars")
    }
  }

  func testABaseURLThatIsNotHTTPIsRefused() async throws {
    let fake = try FakeITunes(fixture: "empty.json")

    await assertThrows(.invalidBaseURL(.apple, "file:///etc")) {
      _ = try await fake.client(baseURL: "file:///etc").search(term: "cars")
    }
    XCTAssertEqual(fake.requestedURLs, [])
  }

  func testFeedURLForAPodcastID() async throws {
    let fake = try FakeITunes(fixture: "lookup-537879700.json")

    let feedURL = try await fake.client().feedURL(forPodcastID: 537_879_700)

    XCTAssertEqual(feedURL, "http://feeds.example.com/forum-politische-bildung")
    XCTAssertEqual(fake.requestedURLs, ["http://127.0.0.1:9/lookup?id=537879700"])
  }

  func testLookupOfAnUnknownIDNamesTheID() async throws {
    let fake = try FakeITunes(fixture: "empty.json")

    await assertThrows(.podcastNotFound(id: 42)) {
      _ = try await fake.client().feedURL(forPodcastID: 42)
    }
    XCTAssertEqual(
      SearchError.podcastNotFound(id: 42).description, "no podcast has the iTunes id 42")
  }

  func testLookupOfAPodcastWithoutFeedNamesTheIDAndTitle() async throws {
    let fake = try FakeITunes(fixture: "lookup-no-feed.json")

    await assertThrows(.podcastHasNoFeed(id: 668_624_357, title: "Members Only Motoring")) {
      _ = try await fake.client().feedURL(forPodcastID: 668_624_357)
    }
  }

  private func assertThrows(
    _ expected: SearchError, file: StaticString = #filePath, line: UInt = #line,
    _ body: () async throws -> Void
  ) async {
    do {
      try await body()
      XCTFail("expected \(expected)", file: file, line: line)
    } catch {
      XCTAssertEqual(error as? SearchError, expected, file: file, line: line)
    }
  }
}
