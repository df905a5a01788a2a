import Foundation
import Search
import Transfer
import XCTest

/// The gpodder.net client: a bare array, titles that are the feed URL, and a service that
/// often answers 500.
final class GpodderClientTests: XCTestCase {
  private func client(_ fake: FakeDirectory) -> GpodderClient {
    GpodderClient(baseURL: "http://127.0.0.1:9", fetch: fake.fetch)
  }

  func testSearchMapsTheBareArray() async throws {
    let fake = try FakeDirectory(fixture: "gpodder/search.json")

    let results = try await client(fake).search(term: "wrint", limit: 10, country: "US")

    XCTAssertEqual(fake.requestedURLs, ["http://127.0.0.1:9/search.json?q=wrint"])
    XCTAssertEqual(
      results.map(\.feedURL),
      [
        "https://www.wrint.de/feed/podcast", "http://timmytrumpet.podtree.com/feed/podcast",
        "http://feeds.feedburner.com/Wrint_Wissenschaft",
      ], "a podcast without a feed URL is left out")
    XCTAssertEqual(
      results[0],
      SearchResult(
        title: "WRINT: Wer redet ist nicht tot", author: "Holger Klein",
        feedURL: "https://www.wrint.de/feed/podcast",
        artworkURL:
          "http://www.wrint.de/wp-content/uploads/powerpress/wrint_basis_weiss_1400.jpg",
        directories: [.gpodder]))
    XCTAssertNil(results[1].title, "a title that is the feed URL is no title")
    XCTAssertNil(results[1].author)
    XCTAssertNil(results[1].artworkURL)
  }

  func testTheLimitCutsTheList() async throws {
    let fake = try FakeDirectory(fixture: "gpodder/search.json")

    let results = try await client(fake).search(term: "wrint", limit: 1, country: "US")

    XCTAssertEqual(results.count, 1)
  }

  func testItsFrequent500IsAFailureThatNamesIt() async {
    let url = "http://127.0.0.1:9/search.json?q=x"
    let error = SearchError.unavailable(
      .gpodder, .httpStatus(url: url, status: 500, retryAfter: nil))

    await assertThrows(error) {
      _ = try await self.client(FakeDirectory(status: 500, body: "<h1>Server Error (500)</h1>"))
        .search(term: "x", limit: 10, country: "US")
    }
    XCTAssertEqual(
      error.description,
      "gpodder.net did not answer: \(url): HTTP 500 Internal Server Error")
  }

  func testAnObjectWhereTheListShouldBeIsUnreadable() async {
    await assertThrows(
      .unreadableResponse(
        .gpodder, url: "http://127.0.0.1:9/search.json?q=x",
        reason: "JSON without a list of podcasts")
    ) {
      _ = try await self.client(FakeDirectory(status: 200, body: #"{"error":"nope"}"#))
        .search(term: "x", limit: 10, country: "US")
    }
  }
}
