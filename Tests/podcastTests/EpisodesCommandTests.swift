import Foundation
import LoopbackServer
import XCTest

/// `podcast episodes` end to end: the real binary against a loopback server that sometimes
/// misbehaves on purpose.
final class EpisodesCommandTests: XCTestCase {
  private var server: LoopbackServer!
  private var podcast: PodcastBinary!

  override func setUpWithError() throws {
    server = try LoopbackServer()
    podcast = try PodcastBinary()
  }

  override func tearDown() {
    server.stop()
  }

  private func serveFeed(at path: String = "/feed.xml", episodes count: Int = 3, size: Int = 100)
    -> String
  {
    FeedFixture.serve(
      FeedFixture.episodes(count, size: size), title: "Loopback Show", at: path, on: server)
  }

  func testListsEpisodesNewestFirstWithIndexes() throws {
    let url = serveFeed(episodes: 3)
    let result = try podcast.run(["episodes", url])
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, "Loopback Show by Test Author")
    XCTAssertTrue(lines[1].contains("DATE") && lines[1].contains("TITLE"), lines[1])
    XCTAssertTrue(lines[2].hasPrefix("1  2024-05-10") && lines[2].hasSuffix("Episode 3"), lines[2])
    XCTAssertTrue(lines[3].hasPrefix("2  2024-05-09") && lines[3].hasSuffix("Episode 2"), lines[3])
    XCTAssertTrue(lines[4].hasPrefix("3  2024-05-08") && lines[4].hasSuffix("Episode 1"), lines[4])
    XCTAssertTrue(lines[2].contains("12:34") && lines[2].contains("new"), lines[2])
    XCTAssertEqual(result.stderr, "")
  }

  func testJSONHasTheDocumentedKeys() throws {
    let url = serveFeed(episodes: 2)
    let result = try podcast.run(["episodes", url, "--json", "--limit", "1"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let document = try XCTUnwrap(try result.json() as? [String: Any])
    let show = try XCTUnwrap(document["podcast"] as? [String: Any])
    XCTAssertEqual(show["title"] as? String, "Loopback Show")
    XCTAssertEqual(show["feedURL"] as? String, url)
    XCTAssertTrue(show["language"] is NSNull, "unknown values are null, never empty strings")
    let episodes = try XCTUnwrap(document["episodes"] as? [[String: Any]])
    XCTAssertEqual(episodes.count, 1)
    let first = episodes[0]
    XCTAssertEqual(first["index"] as? Int, 1)
    XCTAssertEqual(first["title"] as? String, "Episode 2")
    XCTAssertEqual(first["published"] as? String, "2024-05-10T10:00:00Z")
    XCTAssertEqual(first["duration"] as? Int, 754)
    XCTAssertEqual(first["state"] as? String, "new")
    XCTAssertEqual(first["progress"] as? Int, 0)
    XCTAssertTrue(first["file"] is NSNull)
    XCTAssertTrue(first["season"] is NSNull)
    XCTAssertEqual(first["inFeed"] as? Bool, true, "only a subscription's dropped ones say false")
    let enclosure = try XCTUnwrap(first["enclosure"] as? [String: Any])
    XCTAssertEqual(enclosure["url"] as? String, server.url("/media/episode-2.mp3"))
    XCTAssertEqual(enclosure["length"] as? Int, 100)
    XCTAssertEqual(enclosure["type"] as? String, "audio/mpeg")
    for key in [
      "guid", "link", "description", "number", "episodeType", "explicit", "imageURL",
      "transcripts", "chapters",
    ] {
      XCTAssertNotNil(first[key], "key \(key) is always present")
    }
  }

  func testFollowsRedirects() throws {
    let feed = serveFeed(at: "/final.xml")
    server.set("/old", .redirect(to: server.url("/middle"), status: 301))
    server.set("/middle", .redirect(to: feed, status: 302))
    let result = try podcast.run(["episodes", server.url("/old"), "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let show = try XCTUnwrap((try result.json() as? [String: Any])?["podcast"] as? [String: Any])
    XCTAssertEqual(show["feedURL"] as? String, feed, "the feed URL is where it finally came from")
  }

  func testGzipEncodedFeedIsDecoded() throws {
    let rss = FeedFixture.rss(
      title: "Zipped", episodes: FeedFixture.episodes(4, size: 10), base: server.baseURL)
    server.set("/z.xml", Route.text(rss, contentType: "application/rss+xml").gzipped())
    let result = try podcast.run(["episodes", server.url("/z.xml"), "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(((try result.json() as? [String: Any])?["episodes"] as? [Any])?.count, 4)
    XCTAssertEqual(
      server.requests(for: "/z.xml").first?.headers["accept-encoding"]?.contains("gzip"), true)
  }

  func testSendsUserAgent() throws {
    let url = serveFeed()
    _ = try podcast.run(["episodes", url])
    XCTAssertEqual(
      server.requests(for: "/feed.xml").first?.headers["user-agent"]?.hasPrefix("podcast/"), true)
  }

  func testHTTPErrorsNameTheURLAndStatus() throws {
    server.set("/gone.xml", .status(404))
    server.set("/broken.xml", .status(500))
    for (path, status) in [("/gone.xml", "404"), ("/broken.xml", "500")] {
      let result = try podcast.run(["episodes", server.url(path)])
      XCTAssertEqual(result.status, 1)
      XCTAssertEqual(result.stdout, "")
      XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
      XCTAssertTrue(
        result.stderr.contains(server.url(path)) && result.stderr.contains(status), result.stderr)
    }
  }

  /// The server goes on after 6 s, past the 2 s PODCAST_TIMEOUT allows: a client that waited
  /// the stall out would list the episodes and exit 0.
  func testAStalledServerIsAbandonedInsteadOfWaitedOut() throws {
    let rss = FeedFixture.rss(
      title: "Slow", episodes: FeedFixture.episodes(50, size: 10), base: server.baseURL)
    server.set("/stall.xml", Route.text(rss).stalling(after: 100, seconds: 6))
    var binary = podcast!
    binary.environment["PODCAST_TIMEOUT"] = "2"
    let result = try binary.run(["episodes", server.url("/stall.xml")], timeout: 120)
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stdout, "")
    XCTAssertTrue(result.stderr.contains("timed out"), result.stderr)
    XCTAssertEqual(server.requests(for: "/stall.xml").count, 1, "a feed is asked for once")
  }

  func testATimeoutThatIsNotANumberIsNamedAndTheDefaultUsed() throws {
    let url = serveFeed(episodes: 1)
    var binary = podcast!
    binary.environment["PODCAST_TIMEOUT"] = "30s"
    let result = try binary.run(["episodes", url])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains("PODCAST_TIMEOUT=30s"), result.stderr)
    XCTAssertTrue(result.stdout.contains("Episode 1"), result.stdout)
  }

  func testAnHTMLPageIsNotAFeed() throws {
    server.set(
      "/page",
      .html("<!DOCTYPE html><html><head><title>Welcome</title></head><body>Hi</body></html>"))
    let result = try podcast.run(["episodes", server.url("/page")])
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(result.stderr.contains("HTML page"), result.stderr)
  }

  func testRedirectsToOtherSchemesAreRefused() throws {
    for (path, target) in [
      ("/to-file", "file:///etc/passwd"), ("/to-ftp", "ftp://127.0.0.1/feed.xml"),
    ] {
      server.set(path, .redirect(to: target))
      let result = try podcast.run(["episodes", server.url(path)])
      XCTAssertEqual(result.status, 1, path)
      XCTAssertTrue(result.stderr.contains("refused redirect to \(target)"), result.stderr)
      XCTAssertFalse(result.stdout.contains("root:"), "never reads the local file")
    }
  }

  func testRedirectLoopsEnd() throws {
    server.set("/loop", .redirect(to: server.url("/loop")))
    let result = try podcast.run(["episodes", server.url("/loop")])
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(result.stderr.contains("too many redirects"), result.stderr)
  }

  func testOtherSchemesTypedByTheUserAreRefused() throws {
    let result = try podcast.run(["episodes", "ftp://127.0.0.1/feed.xml"])
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(result.stderr.contains("only http and https"), result.stderr)
  }

  func testALocalFeedFileTypedByTheUserWorks() throws {
    let path = podcast.library + "/local feed.xml"
    let rss = FeedFixture.rss(
      title: "On Disk", episodes: FeedFixture.episodes(2, size: 10), base: "https://cdn.example")
    try rss.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try podcast.run(["episodes", path])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.hasPrefix("On Disk"), result.stdout)
    XCTAssertEqual(result.stdout.split(separator: "\n").count, 4)
  }

  func testAMissingFileOrEmptyDocumentIsAClearError() throws {
    let missing = try podcast.run(["episodes", "/nonexistent/feed.xml"])
    XCTAssertEqual(missing.status, 1)
    XCTAssertTrue(missing.stderr.contains("/nonexistent/feed.xml"), missing.stderr)
    server.set("/empty", .text(""))
    let empty = try podcast.run(["episodes", server.url("/empty")])
    XCTAssertEqual(empty.status, 1)
    XCTAssertTrue(empty.stderr.contains("empty"), empty.stderr)
  }

  func testUsageErrorsExit64() throws {
    XCTAssertEqual(try podcast.run(["episodes"]).status, 64)
    XCTAssertEqual(try podcast.run(["episodes", "x.xml", "--limit", "0"]).status, 64)
  }

  func testVersionAndHelp() throws {
    let version = try podcast.run(["--version"])
    XCTAssertEqual(version.status, 0)
    XCTAssertTrue(version.stdout.first?.isNumber == true, version.stdout)
    let help = try podcast.run(["--help"])
    XCTAssertEqual(help.status, 0)
    for command in ["search", "episodes", "download", "sync", "status", "subscribe"] {
      XCTAssertTrue(help.stdout.contains(command), command)
    }
  }

  func testLibraryOptionWorksBeforeAndAfterTheCommand() throws {
    // Large enough to be an audio file (a 100-byte "episode" is refused as a stub).
    let url = serveFeed(episodes: 1, size: 5_000)
    let elsewhere = podcast.library + "/elsewhere"
    XCTAssertEqual(try podcast.run(["--library", elsewhere, "download", url]).status, 0)
    XCTAssertEqual(try podcast.run(["download", url, "--library", elsewhere + "2"]).status, 0)
    XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere + "/Episodes/Loopback Show"))
    XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere + "2/Episodes/Loopback Show"))
  }
}
