import Foundation
import LoopbackServer
import XCTest

/// `podcast search` end to end: the built binary against a loopback iTunes API.
final class SearchCommandTests: XCTestCase {
  func testTableListsNumberedShowsWithFeedNewestDateAndDirectory() throws {
    let server = try serve("/search", response(body: Self.twoShows))

    let run = try search(["cars"], server, environment: ["TZ": "UTC"])

    XCTAssertEqual(run.exitCode, 0, run.stderr)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines[0].contains("TITLE") && lines[0].contains("EPISODES"), run.stdout)
    XCTAssertTrue(lines[0].contains("NEWEST") && lines[0].contains("LISTED BY"), run.stdout)
    XCTAssertTrue(lines[1].hasPrefix("1  Car Talk"), run.stdout)
    XCTAssertTrue(lines[1].contains("NPR"), run.stdout)
    XCTAssertTrue(lines[1].hasSuffix("  2  2017-06-24  apple"), run.stdout)
    XCTAssertEqual(lines[2], "   https://www.npr.org/rss/podcast.php?id=510208")
    XCTAssertTrue(lines[3].hasPrefix("2  Members Only Motoring"), run.stdout)
    XCTAssertTrue(lines[4].contains("no public feed URL: cannot be downloaded"), run.stdout)
  }

  func testRequestCarriesTermLimitAndCountry() throws {
    let server = try serve("/search", response(body: Self.twoShows))

    _ = try search(["Späti", "&", "Co", "--limit", "25", "--country", "de"], server)

    XCTAssertEqual(
      lastRequestTarget(server),
      "/search?term=Sp%C3%A4ti+%26+Co&media=podcast&entity=podcast&limit=25&country=DE")
  }

  func testDefaultsAreTenResultsFromTheUSStore() throws {
    let server = try serve("/search", response(body: Self.twoShows))

    _ = try search(["cars"], server)

    XCTAssertEqual(
      lastRequestTarget(server),
      "/search?term=cars&media=podcast&entity=podcast&limit=10&country=US")
  }

  func testJSONIsAnArrayWithNullsForUnknowns() throws {
    let server = try serve("/search", response(body: Self.twoShows))

    let run = try search(["cars", "--json"], server)

    XCTAssertEqual(run.exitCode, 0, run.stderr)
    let array = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    XCTAssertEqual(array.count, 2)
    XCTAssertEqual(
      Set(array[0].keys),
      [
        "index", "id", "title", "author", "feedURL", "episodeCount", "genre", "artworkURL",
        "storeURL", "releaseDate", "directories", "itunesId", "podcastIndexId", "fyydId",
        "podcastGuid", "lastPublished",
      ])
    XCTAssertEqual(array[0]["index"] as? Int, 1)
    XCTAssertEqual(array[0]["id"] as? Int, 253_191_823)
    XCTAssertEqual(array[0]["feedURL"] as? String, "https://www.npr.org/rss/podcast.php?id=510208")
    XCTAssertEqual(array[0]["releaseDate"] as? String, "2017-06-24T18:00:00Z")
    XCTAssertEqual(array[0]["lastPublished"] as? String, "2017-06-24T18:00:00Z")
    XCTAssertEqual(array[0]["itunesId"] as? Int, 253_191_823)
    XCTAssertEqual(array[0]["directories"] as? [String], ["apple"])
    XCTAssertTrue(array[0]["podcastIndexId"] is NSNull)
    XCTAssertTrue(array[0]["podcastGuid"] is NSNull)
    XCTAssertTrue(array[1]["feedURL"] is NSNull, "a missing feed is null, not \"\"")
    XCTAssertTrue(array[1]["genre"] is NSNull)
    XCTAssertEqual(run.stderr, "")
  }

  func testNoResultsSaysSoAndSucceeds() throws {
    let server = try serve("/search", response(body: "\n\n{\"resultCount\":0,\"results\":[]}"))

    let run = try search(["zzzz"], server)
    let json = try search(["zzzz", "--json"], server)

    XCTAssertEqual(run.exitCode, 0)
    XCTAssertEqual(run.stdout, "")
    XCTAssertTrue(run.stderr.contains("no podcasts found for \"zzzz\""), run.stderr)
    XCTAssertEqual(json.exitCode, 0)
    XCTAssertEqual(json.stdout, "[]\n")
  }

  func testRateLimitingIsOneLineWithTheWait() throws {
    let server = try serve(
      "/search", response(status: 429, headers: ["Retry-After": "120"], body: ""))

    let run = try search(["cars"], server)

    XCTAssertEqual(run.exitCode, 1)
    XCTAssertEqual(run.stdout, "")
    XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("rate-limiting"), run.stderr)
    XCTAssertTrue(run.stderr.contains("try again in 120 s"), run.stderr)
  }

  func testForbiddenCountsAsRateLimited() throws {
    let server = try serve("/search", response(status: 403, body: "Forbidden"))

    let run = try search(["cars"], server)

    XCTAssertEqual(run.exitCode, 1)
    XCTAssertTrue(run.stderr.contains("rate-limiting requests (HTTP 403"), run.stderr)
  }

  func testServerErrorIsOneLine() throws {
    let server = try serve("/search", response(status: 503, body: "<html>down</html>"))

    let run = try search(["cars"], server)

    XCTAssertEqual(run.exitCode, 1)
    XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("503"), run.stderr)
  }

  func testHTMLPageInsteadOfJSONIsAClearError() throws {
    let server = try serve(
      "/search", response(body: "<!DOCTYPE html><html><body>Oops</body></html>"))

    let run = try search(["cars"], server)

    XCTAssertEqual(run.exitCode, 1)
    XCTAssertTrue(run.stderr.contains("an HTML page instead of JSON"), run.stderr)
  }

  func testTruncatedJSONIsAClearError() throws {
    let server = try serve("/search", response(body: String(Self.twoShows.prefix(200))))

    let run = try search(["cars"], server)

    XCTAssertEqual(run.exitCode, 1)
    XCTAssertTrue(run.stderr.contains("cut short or malformed"), run.stderr)
  }

  func testTableFitsANarrowTerminal() throws {
    let server = try serve("/search", response(body: Self.twoShows))

    let run = try search(["cars"], server, environment: ["COLUMNS": "50"])

    let rows = run.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
    XCTAssertFalse(rows.isEmpty)
    for row in rows {
      XCTAssertLessThanOrEqual(row.count, 50, String(row))
    }
    XCTAssertTrue(run.stdout.contains("…"), "long titles are cut with an ellipsis")
  }

  // MARK: - Helpers (the only code that knows the LoopbackServer API)

  private func serve(_ path: String, _ response: Route) throws -> LoopbackServer {
    let server = try LoopbackServer()
    server.set(path, response)
    return server
  }

  private func response(status: Int = 200, headers: [String: String] = [:], body: String) -> Route {
    var route = Route.text(body, contentType: "text/javascript; charset=utf-8").withStatus(status)
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
      route = route.withHeader(name, value)
    }
    return route
  }

  private func lastRequestTarget(_ server: LoopbackServer) -> String? {
    server.requests.last?.target
  }

  private func search(
    _ arguments: [String], _ server: LoopbackServer, environment: [String: String] = [:]
  ) throws -> PodcastBinary.Result {
    try PodcastBinary.run(
      ["search"] + arguments,
      environment: environment.merging(["PODCAST_ITUNES_URL": server.baseURL]) { mine, _ in mine })
  }

  /// Modelled on a real answer: blank lines first, a resultCount that disagrees, a show
  /// without a feed, and an artist mixed in.
  private static let twoShows = """


    {"resultCount": 50, "results": [
      {"wrapperType": "track", "kind": "podcast", "artistId": 125443881,
       "collectionId": 253191823, "trackId": 253191823, "artistName": "NPR",
       "collectionName": "Car Talk", "trackName": "Car Talk",
       "collectionViewUrl": "https://itunes.apple.com/us/podcast/car-talk/id253191823?mt=2&uo=4",
       "feedUrl": "https://www.npr.org/rss/podcast.php?id=510208",
       "artworkUrl600": "http://is5.mzstatic.com/image/thumb/car-talk/600x600bb.jpg",
       "releaseDate": "2017-06-24T18:00:00Z", "trackCount": 2, "primaryGenreName": "Automotive",
       "genres": ["Automotive", "Podcasts"]},
      {"wrapperType": "artist", "artistType": "Artist", "artistName": "NPR", "artistId": 125443881},
      {"wrapperType": "track", "kind": "podcast", "collectionId": 668624357,
       "artistName": "Cars Without Feeds And With A Very Long Author Name Indeed",
       "collectionName": "Members Only Motoring: The Extended Director's Cut Edition",
       "trackCount": 118}
    ]}
    """
}
