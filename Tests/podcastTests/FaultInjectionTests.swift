import Foundation
import LoopbackServer
import XCTest

/// Every misbehaviour the loopback server knows, applied to each of the three kinds of thing
/// the tool fetches: a feed (`episodes --json`), an iTunes API call (`search --json`) and an
/// episode (`download FEED 1`). One table, one loop; every failure names its case.
///
/// What the table pins down: downloads retry transient faults (drops, stalls, wrong lengths,
/// 5xx, 429) and resume to the exact bytes; feeds and API calls are fetched once and a fault
/// is a one-line error naming the URL, exit 1, and nothing under Episodes. Nothing ever
/// follows a redirect off http(s), and an HTML page is never taken for a feed, JSON or audio.
final class FaultInjectionTests: XCTestCase {
  enum Target: String, CaseIterable, Sendable {
    case feed, search, episode
  }

  enum Outcome: Sendable {
    /// Exit 0 with the whole answer: 3 episodes listed, 2 search results, or the exact bytes.
    case succeeds(requests: Int)
    /// Exit 1, one stderr line containing `message`, nothing under Episodes. `requests` is
    /// how many GETs the faulty path saw (nil: not counted, e.g. a redirect loop).
    case fails(_ message: String, requests: Int?)
  }

  /// What a fault's `apply` may need to know about the route it spoils.
  struct Subject: Sendable {
    var size: Int
    var url: String
  }

  struct Fault: Sendable {
    var name: String
    var environment: [String: String] = [:]
    var apply: @Sendable (Route, Subject) -> Route
    var feed: Outcome
    var search: Outcome
    var episode: Outcome

    func outcome(_ target: Target) -> Outcome {
      switch target {
      case .feed: feed
      case .search: search
      case .episode: episode
      }
    }
  }

  static let page =
    "<!DOCTYPE html><html><head><title>Sign in</title></head><body>Wi-Fi login</body></html>\n"

  static let faults: [Fault] = [
    Fault(
      name: "connection dropped mid-body once",
      apply: { $0.dropping(after: $1.size / 3, times: 1) },
      feed: .fails("connection lost", requests: 1),
      search: .fails("connection lost", requests: 1),
      episode: .succeeds(requests: 2)),
    Fault(
      // "No data for 2 s" means 2 s (plus libcurl's 1 s tick), not the 7-8 s libcurl's own
      // low-speed average takes after a burst: the server goes on after 6 s, so a client
      // that waited it out would get the whole answer in one request and fail its case.
      name: "stalled mid-body for 6 s once (PODCAST_TIMEOUT=2)",
      environment: ["PODCAST_TIMEOUT": "2"],
      apply: { $0.stalling(after: $1.size / 3, seconds: 6, times: 1) },
      feed: .fails("timed out", requests: 1),
      search: .fails("timed out", requests: 1),
      episode: .succeeds(requests: 2)),
    Fault(
      // Slow but steady for longer than the stall timeout: not a stall.
      name: "trickled over ~2.5 s (PODCAST_TIMEOUT=2)",
      environment: ["PODCAST_TIMEOUT": "2"],
      apply: { $0.trickling(bytesPerSecond: max(1, $1.size * 10 / 25)) },
      feed: .succeeds(requests: 1),
      search: .succeeds(requests: 1),
      episode: .succeeds(requests: 1)),
    Fault(
      name: "HTTP 500 every time",
      apply: { _, _ in .status(500, body: "boom\n") },
      feed: .fails("HTTP 500", requests: 1),
      search: .fails("HTTP 500", requests: 1),
      episode: .fails("HTTP 500", requests: 3)),
    Fault(
      name: "HTTP 503 then 200",
      apply: { good, _ in .sequence([.status(503, body: "busy\n"), good]) },
      feed: .fails("HTTP 503", requests: 1),
      search: .fails("HTTP 503", requests: 1),
      episode: .succeeds(requests: 2)),
    Fault(
      name: "429 with Retry-After: 1, then 200",
      apply: { good, _ in .sequence([.tooManyRequests(retryAfter: 1), good]) },
      feed: .fails("HTTP 429", requests: 1),
      // A search asks a directory once more after a Retry-After of up to 10 s.
      search: .succeeds(requests: 2),
      episode: .succeeds(requests: 2)),
    Fault(
      // Every byte arrives, but the announced size is never reached. The resume asks for
      // the 500 missing bytes, the (now honest) server answers 416, and the download starts
      // over from zero: three GETs.
      name: "Content-Length 500 bytes too long, once",
      apply: { good, _ in .sequence([good.lyingAboutLength(by: 500), good]) },
      feed: .fails("connection lost", requests: 1),
      search: .fails("connection lost", requests: 1),
      episode: .succeeds(requests: 3)),
    Fault(
      // The resume after the drop asks for a Range and gets the whole file again.
      name: "Range ignored after a drop",
      apply: { $0.dropping(after: $1.size / 3, times: 1).ignoringRange() },
      feed: .fails("connection lost", requests: 1),
      search: .fails("connection lost", requests: 1),
      episode: .succeeds(requests: 2)),
    Fault(
      name: "redirect loop",
      apply: { _, subject in .redirect(to: subject.url) },
      feed: .fails("too many redirects", requests: 11),
      search: .fails("too many redirects", requests: 11),
      episode: .fails("too many redirects", requests: 11)),
    Fault(
      name: "redirect to file:///etc/passwd",
      apply: { _, _ in .redirect(to: "file:///etc/passwd") },
      feed: .fails("refused redirect to file:///etc/passwd", requests: 1),
      search: .fails("refused redirect to file:///etc/passwd", requests: 1),
      episode: .fails("refused redirect to file:///etc/passwd", requests: 1)),
    Fault(
      name: "HTML page with 200",
      apply: { _, _ in .html(page) },
      feed: .fails("HTML page", requests: 1),
      search: .fails("HTML page instead of JSON", requests: 1),
      episode: .fails("HTML", requests: 1)),
    Fault(
      name: "gzip bytes without Content-Encoding",
      apply: { good, _ in good.gzippedWithoutContentEncoding() },
      feed: .fails("gzip-compressed data, not XML", requests: 1),
      search: .fails("not JSON", requests: 1),
      // Retried like any other bad body, then a failure that says why; never recorded.
      episode: .fails("gzip-compressed", requests: 3)),
  ]

  func testEveryFaultOnEveryTarget() throws {
    for fault in Self.faults {
      for target in Target.allCases {
        try check(fault, on: target, named: "[\(fault.name) → \(target.rawValue)]")
      }
    }
  }

  // MARK: - One case

  private func check(_ fault: Fault, on target: Target, named name: String) throws {
    let server = try LoopbackServer()
    var binary = try PodcastBinary()
    defer {
      server.stop()
      try? FileManager.default.removeItem(atPath: binary.library)
    }
    binary.environment.merge(fault.environment) { _, new in new }
    binary.environment["PODCAST_ITUNES_URL"] = server.baseURL

    let episode = FeedFixture.episodes(3, size: 20_000)[0]
    let (path, arguments) = serve(target, fault, episode: episode, on: server)
    let result: PodcastBinary.Result
    do {
      // Only a hang ends here: every fault is bounded by requests (counted below), not time.
      result = try binary.run(arguments, timeout: 120)
    } catch {
      return XCTFail("\(name) \(error)")
    }
    let summary = "\(name) exit \(result.status), stderr: \(result.stderr)"

    XCTAssertFalse(
      (result.stdout + result.stderr).contains("root:x:0"), "\(name) leaked /etc/passwd")
    let gets = server.requests(for: path).filter { $0.method == "GET" }.count

    switch fault.outcome(target) {
    case .succeeds(let requests):
      XCTAssertEqual(result.status, 0, summary)
      XCTAssertEqual(gets, requests, "\(name) GETs of \(path)")
      try checkAnswer(target, result, binary: binary, episode: episode, name: name)
    case .fails(let message, let requests):
      XCTAssertEqual(result.status, 1, summary)
      XCTAssertEqual(result.stderrLines.count, 1, summary)
      XCTAssertTrue(
        result.stderr.contains(message), "\(name) stderr lacks \"\(message)\": \(summary)")
      if let requests { XCTAssertEqual(gets, requests, "\(name) GETs of \(path)") }
      XCTAssertEqual(binary.episodeFiles(), [], "\(name) left files under Episodes")
      if target != .episode { XCTAssertEqual(result.stdout, "", "\(name) stdout") }
    }
  }

  /// Serves the target's good answer with the fault applied; returns the faulty path and the
  /// command line that fetches it.
  private func serve(
    _ target: Target, _ fault: Fault, episode: FakeEpisode, on server: LoopbackServer
  ) -> (path: String, arguments: [String]) {
    switch target {
    case .feed:
      let xml = FeedFixture.rss(
        title: "Faulty Show", episodes: FeedFixture.episodes(3, size: 100), base: server.baseURL)
      let good = Route.text(xml, contentType: "application/rss+xml")
      let subject = Subject(size: xml.utf8.count, url: server.url("/feed.xml"))
      server.set("/feed.xml", fault.apply(good, subject))
      return ("/feed.xml", ["episodes", server.url("/feed.xml"), "--json"])
    case .search:
      let good = Route.text(Self.searchAnswer, contentType: "text/javascript; charset=utf-8")
      let subject = Subject(size: Self.searchAnswer.utf8.count, url: server.url("/search"))
      server.set("/search", fault.apply(good, subject))
      return ("/search", ["search", "x", "--json"])
    case .episode:
      let feedURL = FeedFixture.serve(
        FeedFixture.episodes(3, size: 20_000), title: "Faulty Show", on: server)
      let subject = Subject(size: episode.body.count, url: server.url(episode.path))
      server.set(episode.path, fault.apply(DownloadScenario.plainRoute(episode), subject))
      return (episode.path, ["download", feedURL, "1"])
    }
  }

  private func checkAnswer(
    _ target: Target, _ result: PodcastBinary.Result, binary: PodcastBinary,
    episode: FakeEpisode, name: String
  ) throws {
    switch target {
    case .feed:
      let document = try XCTUnwrap(try result.json() as? [String: Any], name)
      XCTAssertEqual((document["episodes"] as? [Any])?.count, 3, "\(name) episodes listed")
    case .search:
      let results = try XCTUnwrap(try result.json() as? [[String: Any]], name)
      XCTAssertEqual(results.count, 2, "\(name) search results")
    case .episode:
      let expected =
        "Faulty Show/" + DownloadScenario.day(episode.published) + " "
        + episode.title + ".mp3"
      XCTAssertEqual(binary.episodeFiles(), [expected], "\(name) files under Episodes")
      let saved = FileManager.default.contents(atPath: binary.episodesDirectory + "/" + expected)
      XCTAssertTrue(saved == episode.body, "\(name) saved bytes differ from the served ones")
      XCTAssertEqual(binary.partialFiles(), [], "\(name) left a partial file")
    }
  }

  private static let searchAnswer = """
    {"resultCount": 2, "results": [
      {"wrapperType": "track", "kind": "podcast", "collectionId": 101, "trackId": 101,
       "artistName": "Loopback Radio", "collectionName": "First Show",
       "feedUrl": "https://feeds.example.com/first.xml", "trackCount": 12,
       "primaryGenreName": "Technology"},
      {"wrapperType": "track", "kind": "podcast", "collectionId": 202, "trackId": 202,
       "artistName": "Loopback Radio", "collectionName": "Second Show",
       "feedUrl": "https://feeds.example.com/second.xml", "trackCount": 34,
       "primaryGenreName": "News"}
    ]}
    """
}
