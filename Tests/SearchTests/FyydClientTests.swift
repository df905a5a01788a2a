import Foundation
import Search
import Transfer
import XCTest

/// The fyyd client: its answers' changing field types, lookups and refusals.
final class FyydClientTests: XCTestCase {
  private func client(_ fake: FakeDirectory, baseURL: String = "http://127.0.0.1:9")
    -> FyydClient
  {
    FyydClient(baseURL: baseURL, fetch: fake.fetch)
  }

  func testSearchAsksForTheTermAndCountWithoutAKey() async throws {
    let fake = try FakeDirectory(fixture: "fyyd/search-podcast.json")

    _ = try await client(fake).search(term: "freak show", limit: 5, country: "US")

    XCTAssertEqual(
      fake.requestedURLs, ["http://127.0.0.1:9/0.2/search/podcast?term=freak+show&count=5"])
    XCTAssertEqual(fake.requests.first?.headers, [:], "fyyd needs no key")
  }

  func testCountsComeAsStringsOrNumbersAndDatesInTwoForms() async throws {
    let fake = try FakeDirectory(fixture: "fyyd/search-podcast.json")

    let results = try await client(fake).search(term: "x", limit: 10, country: "US")

    XCTAssertEqual(results.map(\.fyydID), [40, 36645, 64])
    XCTAssertEqual(
      results[0],
      SearchResult(
        title: "WRINT: Wer redet ist nicht tot", feedURL: "https://www.wrint.de/feed/podcast",
        episodeCount: 921,
        artworkURL:
          "http://www.wrint.de/wp-content/uploads/powerpress/wrint_basis_weiss_1400.jpg",
        lastPublished: try Date("2018-09-28T13:24:13Z", strategy: .iso8601),
        directories: [.fyyd], fyydID: 40),
      "episode_count \"921\", lastpub with +02:00")
    // episode_count 52 (a number), categories 38 (a number), imgURL "", lastpub in the old form.
    XCTAssertEqual(results[1].episodeCount, 52)
    XCTAssertEqual(results[1].title, "Timmy Trumpet – Freak Show")
    XCTAssertEqual(results[1].artworkURL, "https://img.fyyd.de/pd/layout/36645.jpg")
    XCTAssertEqual(
      results[1].lastPublished, try Date("2016-06-26T22:30:17Z", strategy: .iso8601),
      "fyyd's old dates are German time")
    // xmlURL "", no episode_count, categories [], lastpub null.
    XCTAssertNil(results[2].feedURL)
    XCTAssertNil(results[2].episodeCount)
    XCTAssertNil(results[2].lastPublished)
  }

  func testLookupReadsThePodcastObject() async throws {
    let fake = try FakeDirectory(fixture: "fyyd/podcast-85.json")

    let feedURL = try await client(fake).feedURL(forPodcastID: 85)

    XCTAssertEqual(feedURL, "https://feeds.metaebene.me/freakshow/m4a")
    XCTAssertEqual(fake.requestedURLs, ["http://127.0.0.1:9/0.2/podcast?podcast_id=85"])
  }

  func testAnUnknownPodcastIsNotListed() async {
    for fake in [
      FakeDirectory(status: 404),
      FakeDirectory(status: 200, body: #"{"status":0,"msg":"podcast not found","data":null}"#),
      FakeDirectory(status: 200, body: #"{"status":1,"msg":"ok","data":[]}"#),
    ] {
      await assertThrows(.notListed(.fyydPodcast(7))) {
        _ = try await self.client(fake).feedURL(forPodcastID: 7)
      }
    }
    XCTAssertEqual(
      SearchError.notListed(.fyydPodcast(7)).description, "no podcast has the fyyd id 7")
  }

  func testARefusalIsInFyydsOwnWords() async throws {
    let fake = try FakeDirectory(fixture: "fyyd/error-400.json", status: 400)

    await assertThrows(
      .refused(
        .fyyd, url: "http://127.0.0.1:9/0.2/search/podcast?term=x&count=10",
        reason: "HTTP 400: no search term given")
    ) {
      _ = try await self.client(fake).search(term: "x", limit: 10, country: "US")
    }
  }

  func testNoMatchesIsAnEmptyList() async throws {
    let fake = FakeDirectory(status: 200, body: #"{"status":1,"msg":"ok","meta":{},"data":[]}"#)

    let results = try await client(fake).search(term: "zzzz", limit: 10, country: "US")

    XCTAssertEqual(results, [])
  }

  func testServerErrorsAndRateLimitsAreTheDirectorysFailure() async {
    let url = "http://127.0.0.1:9/0.2/search/podcast?term=x&count=10"
    await assertThrows(
      .unavailable(.fyyd, .httpStatus(url: url, status: 503, retryAfter: nil))
    ) {
      _ = try await self.client(FakeDirectory(status: 503)).search(
        term: "x", limit: 10, country: "US")
    }
    await assertThrows(.rateLimited(.fyyd, url: url, status: 429, retryAfter: nil)) {
      _ = try await self.client(FakeDirectory(status: 429)).search(
        term: "x", limit: 10, country: "US")
    }
  }
}
