import Foundation
import Search
import Transfer
import XCTest

/// The Podcast Index client: signed requests, the service's answers with their habits, and
/// its refusals, over a fake transport.
final class PodcastIndexClientTests: XCTestCase {
  /// A key and secret in the shape the service issues (made up).
  private let credentials = PodcastIndexCredentials(
    key: "UXKCGDSYGUUEVQJSYDZH", secret: "yzJe2eE7XV-3eY576dyRZ6wXyAbndh6LUrCZ8KN|")!

  private func client(_ fake: FakeDirectory, baseURL: String = "http://127.0.0.1:9")
    -> PodcastIndexClient
  {
    PodcastIndexClient(
      baseURL: baseURL, credentials: credentials,
      now: { Date(timeIntervalSince1970: 1_700_000_000.7) }, fetch: fake.fetch)
  }

  func testEveryRequestIsSignedAsTheServiceDocumentsIt() async throws {
    let fake = try FakeDirectory(fixture: "podcastindex/search-byterm.json")

    _ = try await client(fake).search(term: "no agenda", limit: 10, country: "US")

    let headers = try XCTUnwrap(fake.requests.first?.headers)
    XCTAssertEqual(headers["X-Auth-Key"], "UXKCGDSYGUUEVQJSYDZH")
    XCTAssertEqual(headers["X-Auth-Date"], "1700000000", "whole unix seconds, rounded down")
    // sha1("UXKCGDSYGUUEVQJSYDZH" + secret + "1700000000"), from Python's hashlib.
    XCTAssertEqual(headers["Authorization"], "c75e70335187b65588b2c46e98691f5e9d5850af")
  }

  func testSearchAsksByTermWithTheLimit() async throws {
    let fake = try FakeDirectory(fixture: "podcastindex/search-byterm.json")

    _ = try await client(fake, baseURL: "http://127.0.0.1:9/").search(
      term: " Späti & Co ", limit: 25, country: "US")

    XCTAssertEqual(
      fake.requestedURLs, ["http://127.0.0.1:9/api/1.0/search/byterm?q=Sp%C3%A4ti+%26+Co&max=25"])
  }

  func testSearchMapsTheFeedsAndSkipsDeadOnes() async throws {
    let fake = try FakeDirectory(fixture: "podcastindex/search-byterm.json")

    let results = try await client(fake).search(term: "no agenda", limit: 10, country: "US")

    XCTAssertEqual(results.map(\.podcastIndexID), [41504, 6_594_066, 777_001], "dead: 1 is gone")
    XCTAssertEqual(
      results[0],
      SearchResult(
        iTunesID: 269_169_796, title: "No Agenda Show", author: "Adam Curry & John C. Dvorak",
        feedURL: "http://feed.nashownotes.com/rss.xml", episodeCount: 1567,
        artworkURL: "https://noagendaassets.com/enc/1684705257.13_na-1557-art-feed.png",
        lastPublished: Date(timeIntervalSince1970: 1_700_938_800), directories: [.podcastindex],
        podcastIndexID: 41504, podcastGUID: "856cd618-7f34-57ea-9b84-3600f1f65e7f"))
  }

  func testItsHabitsAreUnknownsNotErrors() async throws {
    let fake = try FakeDirectory(fixture: "podcastindex/search-byterm.json")

    let results = try await client(fake).search(term: "no agenda", limit: 10, country: "US")

    // itunesId null, categories null, language "", author "", newestItemPubdate 0.
    let sparse = results[1]
    XCTAssertNil(sparse.iTunesID)
    XCTAssertEqual(sparse.author, "Agenda Free Collective", "ownerName when author is empty")
    XCTAssertNil(sparse.artworkURL)
    XCTAssertNil(sparse.lastPublished, "0 is no date")
    // itunesId 0, categories [], an ftp url with an https originalUrl, artwork "" with an image.
    let odd = results[2]
    XCTAssertNil(odd.iTunesID)
    XCTAssertEqual(odd.feedURL, "https://legacy.example/agenda.xml")
    XCTAssertEqual(odd.artworkURL, "https://legacy.example/a.jpg")
    XCTAssertNil(odd.podcastGUID, "an empty podcastGuid is none")
  }

  func testSearchNeverReturnsMoreThanTheLimit() async throws {
    let fake = try FakeDirectory(fixture: "podcastindex/search-byterm.json")

    let results = try await client(fake).search(term: "no agenda", limit: 1, country: "US")

    XCTAssertEqual(results.map(\.podcastIndexID), [41504])
  }

  func testLookupsByFeedIDAndGUIDReadTheFeedObject() async throws {
    let fake = try FakeDirectory(fixture: "podcastindex/byfeedid.json")

    let byID = try await client(fake).feedURL(for: .podcastIndexFeed(41504))
    let byGUID = try await client(fake).podcast(
      .podcastGUID("856cd618-7f34-57ea-9b84-3600f1f65e7f"))
    let byITunesID = try await client(fake).podcast(iTunesID: 269_169_796)

    XCTAssertEqual(byID, "http://feed.nashownotes.com/rss.xml")
    XCTAssertEqual(byGUID.lastPublished, Date(timeIntervalSince1970: 1_700_938_800))
    XCTAssertEqual(byITunesID?.podcastIndexID, 41504)
    XCTAssertEqual(
      fake.requestedURLs,
      [
        "http://127.0.0.1:9/api/1.0/podcasts/byfeedid?id=41504",
        "http://127.0.0.1:9/api/1.0/podcasts/byguid?guid=856cd618-7f34-57ea-9b84-3600f1f65e7f",
        "http://127.0.0.1:9/api/1.0/podcasts/byitunesid?id=269169796",
      ])
  }

  func testALookupThatFindsNothingIsAnEmptyArrayAndSaysSo() async throws {
    let fake = try FakeDirectory(fixture: "podcastindex/not-found.json")

    await assertThrows(.notListed(.podcastIndexFeed(3))) {
      _ = try await self.client(fake).feedURL(for: .podcastIndexFeed(3))
    }
    let byITunesID = try await client(fake).podcast(iTunesID: 42)
    XCTAssertNil(byITunesID)
    XCTAssertEqual(
      SearchError.notListed(.podcastIndexFeed(3)).description,
      "no podcast has the Podcast Index id 3")
  }

  func testARefusedSignatureSaysToCheckKeySecretAndClock() async {
    let fake = FakeDirectory(
      status: 401, body: #"{"status":"false","description":"Authorization header doesn't match."}"#)

    await assertThrows(
      .keyRefused(url: "http://127.0.0.1:9/api/1.0/search/byterm?q=x&max=10", status: 401)
    ) {
      _ = try await self.client(fake).search(term: "x", limit: 10, country: "US")
    }
    let sentence = SearchError.keyRefused(url: "u", status: 401).description
    XCTAssertTrue(sentence.contains("check the key and secret"), sentence)
    XCTAssertTrue(sentence.contains("clock"), sentence)
  }

  func testStatusFalseIsARefusalInTheServicesWords() async throws {
    let fake = try FakeDirectory(fixture: "podcastindex/status-false.json")

    await assertThrows(
      .refused(
        .podcastindex, url: "http://127.0.0.1:9/api/1.0/search/byterm?q=x&max=10",
        reason: "Invalid parameters: q is required.")
    ) {
      _ = try await self.client(fake).search(term: "x", limit: 10, country: "US")
    }
  }

  func testWordsAServerEchoesBackNeverCarryTheSecretOrSignature() async {
    let signature = "c75e70335187b65588b2c46e98691f5e9d5850af"
    let fake = FakeDirectory(
      status: 400,
      body:
        #"{"status":"false","description":"bad: yzJe2eE7XV-3eY576dyRZ6wXyAbndh6LUrCZ8KN| \#(signature)"}"#
    )

    do {
      _ = try await client(fake).search(term: "x", limit: 10, country: "US")
      XCTFail("a 400 is a refusal")
    } catch {
      let sentence = "\(error)"
      XCTAssertFalse(sentence.contains("yzJe2eE7XV"), sentence)
      XCTAssertFalse(sentence.contains(signature), sentence)
      XCTAssertTrue(sentence.contains("bad: **** ****"), sentence)
    }
    XCTAssertFalse("\(credentials)".contains("yzJe2eE7XV"), "printing the credentials")
    XCTAssertFalse(String(reflecting: credentials).contains("yzJe2eE7XV"))
  }

  func testRateLimitingCarriesTheWaitAndServerErrorsAreUnavailable() async {
    let url = "http://127.0.0.1:9/api/1.0/search/byterm?q=x&max=10"
    await assertThrows(.rateLimited(.podcastindex, url: url, status: 429, retryAfter: 3)) {
      _ = try await self.client(FakeDirectory(status: 429, headers: ["retry-after": "3"]))
        .search(term: "x", limit: 10, country: "US")
    }
    await assertThrows(
      .unavailable(.podcastindex, .httpStatus(url: url, status: 502, retryAfter: nil))
    ) {
      _ = try await self.client(FakeDirectory(status: 502, body: "<html>Bad Gateway</html>"))
        .search(term: "x", limit: 10, country: "US")
    }
    let refused = TransferError.network(url: url, reason: "Connection refused")
    await assertThrows(.unavailable(.podcastindex, refused)) {
      _ = try await self.client(FakeDirectory(.failure(refused)))
        .search(term: "x", limit: 10, country: "US")
    }
  }

  func testAnHTMLPageOrCutJSONIsUnreadable() async {
    let url = "http://127.0.0.1:9/api/1.0/search/byterm?q=x&max=10"
    await assertThrows(
      .unreadableResponse(.podcastindex, url: url, reason: "an HTML page instead of JSON")
    ) {
      _ = try await self.client(FakeDirectory(status: 200, body: "<!DOCTYPE html><p>Oops"))
        .search(term: "x", limit: 10, country: "US")
    }
    await assertThrows(
      .unreadableResponse(.podcastindex, url: url, reason: "the JSON is cut short or malformed")
    ) {
      _ = try await self.client(
        FakeDirectory(status: 200, body: #"{"status":"true","feeds":[{"id":1"#)
      )
      .search(term: "x", limit: 10, country: "US")
    }
  }

  func testABaseURLThatIsNotHTTPIsRefusedBeforeAnyRequest() async throws {
    let fake = try FakeDirectory(fixture: "podcastindex/search-byterm.json")

    await assertThrows(.invalidBaseURL(.podcastindex, "file:///etc")) {
      _ = try await self.client(fake, baseURL: "file:///etc").search(
        term: "x", limit: 10, country: "US")
    }
    XCTAssertEqual(fake.requests.count, 0)
  }

  func testCredentialsNeedBothKeyAndSecret() {
    XCTAssertNil(PodcastIndexCredentials(key: "KEY", secret: nil))
    XCTAssertNil(PodcastIndexCredentials(key: " ", secret: "secret"))
    XCTAssertEqual(
      PodcastIndexCredentials(key: " KEY\n", secret: "secret\n"),
      PodcastIndexCredentials(key: "KEY", secret: "secret"), "a pasted line break is dropped")
  }
}
