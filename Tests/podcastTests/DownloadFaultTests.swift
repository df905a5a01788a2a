import Foundation
import LoopbackServer
import XCTest

/// `podcast download` against servers that misbehave the way real CDNs and hosts do: the
/// finished file is still exactly the served bytes, or nothing appears under Episodes at all.
final class DownloadFaultTests: XCTestCase {
  /// One episode of `size` bytes whose first answer is cut after `dropAfter`: the download
  /// must succeed by asking for exactly the rest, and give the exact file.
  private func downloadResumingAfterADrop(size: Int, dropAfter: Int) throws -> (
    DownloadScenario, FakeEpisode
  ) {
    let episodes = FeedFixture.episodes(1, size: size)
    let scenario = try DownloadScenario(episodes) { $0.dropping(after: dropAfter, times: 1) }
    let result = try scenario.download()
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(scenario.ranges(episodes[0]), [nil, "bytes=\(dropAfter)-"])
    scenario.assertEpisodesHold(episodes)
    return (scenario, episodes[0])
  }

  func testDroppedConnectionResumesWithARangeRequest() throws {
    let (scenario, episode) = try downloadResumingAfterADrop(size: 200_000, dropAfter: 60_000)
    XCTAssertEqual(scenario.gets(episode).last?.header("if-range"), "\"\(episode.guid)\"")
    XCTAssertEqual(scenario.binary.partialFiles(), [], "the partial file outlived the download")
  }

  /// Megabytes in, the bytes held in memory when the connection dropped still reach the disk,
  /// so the retry asks for exactly the rest.
  func testDroppedConnectionOfALargeEpisodeResumesFromTheLastByteReceived() throws {
    _ = try downloadResumingAfterADrop(size: 3_000_000, dropAfter: 1_700_001)
  }

  func testServerThatIgnoresRangeStillGivesTheExactFile() throws {
    let episodes = FeedFixture.episodes(1, size: 200_000)
    let scenario = try DownloadScenario(episodes) {
      $0.dropping(after: 60_000, times: 1).ignoringRange()
    }
    let result = try scenario.download()
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(scenario.gets(episodes[0]).count, 2)
    XCTAssertNotNil(scenario.ranges(episodes[0]).last ?? nil, "the retry did not ask for a range")
    scenario.assertEpisodesHold(episodes)
  }

  /// The publisher replaced the file between two attempts: the old bytes must not be glued to
  /// the new ones.
  func testChangedETagRestartsFromZeroWithTheNewContent() throws {
    let episodes = FeedFixture.episodes(1, size: 200_000)
    let scenario = try DownloadScenario(episodes)
    let replacement = FeedFixture.bytes(180_000, seed: 4242)
    scenario.serve(
      episodes[0],
      .sequence([
        DownloadScenario.plainRoute(episodes[0]).dropping(after: 60_000, times: 1),
        .data(replacement, contentType: "audio/mpeg").withETag("\"second-version\""),
      ]))
    let result = try scenario.download()
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(scenario.gets(episodes[0]).count, 2)
    scenario.assertFile(
      scenario.binary.episodesDirectory + "/" + scenario.defaultPath(episodes[0]),
      equals: replacement)
    XCTAssertEqual(scenario.binary.episodeFiles().count, 1)
  }

  /// Announcing more bytes than are sent: never a short file under Episodes. Once is a glitch
  /// that a retry repairs; every time is a failure that names the URL.
  func testWrongContentLength() throws {
    let episodes = FeedFixture.episodes(2, size: 100_000)
    let scenario = try DownloadScenario(episodes)
    let (always, once) = (episodes[0], episodes[1])
    scenario.serve(always, DownloadScenario.plainRoute(always).lyingAboutLength(by: 5_000))
    scenario.serve(
      once,
      .sequence([
        DownloadScenario.plainRoute(once).lyingAboutLength(by: 5_000),
        DownloadScenario.plainRoute(once),
      ]))
    let result = try scenario.download("--all", timeout: 20)
    XCTAssertEqual(result.status, 1, result.stderr)
    scenario.assertEpisodesHold([once])
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains(scenario.server.url(always.path)), result.stderr)
  }

  func testHTMLPageWithStatus200IsNotAnEpisode() throws {
    let episodes = FeedFixture.episodes(2, size: 10_000)
    let scenario = try DownloadScenario(episodes)
    let page =
      "<!DOCTYPE html><html><head><title>Log in</title></head><body>Please log in</body></html>\n"
    scenario.serve(episodes[0], .html(page))
    scenario.serve(episodes[1], .html(page).withContentType("audio/mpeg"))
    let result = try scenario.download("--all")
    XCTAssertEqual(result.status, 1, result.stderr)
    scenario.assertNothingUnderEpisodes()
    XCTAssertEqual(result.stderrLines.count, 2, result.stderr)
    for episode in episodes {
      let line = result.stderrLines.first { $0.contains(scenario.server.url(episode.path)) }
      XCTAssertTrue(line?.contains("HTML") ?? false, "\(episode.path): \(result.stderr)")
    }
  }

  /// PODCAST_TIMEOUT=2: a stall once is survived by resuming; a stall every time fails after
  /// the set number of tries, not never. Each stall ends after 6 s, longer than the 2 s (plus
  /// libcurl's 1 s tick) the timeout allows and shorter than the 7-8 s libcurl's own low-speed
  /// check would take: a client that waited the stalls out would finish both files.
  func testStallsTimeOutAndAreRetriedABoundedNumberOfTimes() throws {
    let episodes = FeedFixture.episodes(2, size: 150_000)
    let scenario = try DownloadScenario(episodes, environment: ["PODCAST_TIMEOUT": "2"])
    let (once, always) = (episodes[0], episodes[1])
    scenario.serve(
      once, DownloadScenario.plainRoute(once).stalling(after: 50_000, seconds: 6, times: 1))
    // After the head, not one byte: no attempt makes progress.
    scenario.serve(always, DownloadScenario.plainRoute(always).stalling(after: 0, seconds: 6))
    let result = try scenario.download("--all", timeout: 120)
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertEqual(scenario.ranges(once), [nil, "bytes=50000-"])
    XCTAssertEqual(
      scenario.ranges(always), [nil, nil, nil], "three tries, none with bytes to resume")
    scenario.assertEpisodesHold([once])
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains(scenario.server.url(always.path)), result.stderr)
    XCTAssertTrue(result.stderr.contains("timed out"), result.stderr)
  }

  func testServerErrorThenSuccessIsRetried() throws {
    let episodes = FeedFixture.episodes(1, size: 30_000)
    let scenario = try DownloadScenario(episodes)
    scenario.serve(
      episodes[0], .sequence([.status(500), DownloadScenario.plainRoute(episodes[0])]))
    let result = try scenario.download()
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(scenario.gets(episodes[0]).count, 2)
    scenario.assertEpisodesHold(episodes)
  }

  func testTooManyRequestsWaitsForRetryAfter() throws {
    let episodes = FeedFixture.episodes(1, size: 30_000)
    let scenario = try DownloadScenario(episodes)
    scenario.serve(
      episodes[0],
      .sequence([.tooManyRequests(retryAfter: 1), DownloadScenario.plainRoute(episodes[0])]))
    let result = try scenario.download()
    XCTAssertEqual(result.status, 0, result.stderr)
    let gets = scenario.gets(episodes[0])
    XCTAssertEqual(gets.count, 2)
    // A lower bound the server measures: a busy machine only makes the gap longer.
    if gets.count == 2 {
      XCTAssertGreaterThanOrEqual(
        gets[1].received - gets[0].received, .seconds(1), "asked again before Retry-After")
    }
    scenario.assertEpisodesHold(episodes)
  }

  /// A Retry-After past what a run waits for (120 s) fails the episode at once: one request.
  func testTooManyRequestsWithARetryAfterPastTheCapIsNotWaitedFor() throws {
    let episodes = FeedFixture.episodes(1, size: 30_000)
    let scenario = try DownloadScenario(episodes)
    scenario.serve(
      episodes[0],
      .sequence([.tooManyRequests(retryAfter: 121), DownloadScenario.plainRoute(episodes[0])]))
    let result = try scenario.download(timeout: 60)
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertEqual(scenario.gets(episodes[0]).count, 1)
    XCTAssertTrue(result.stderr.contains("429"), result.stderr)
    scenario.assertNothingUnderEpisodes()
  }

  func testRedirectChainIsFollowedToTheFile() throws {
    var episodes = FeedFixture.episodes(1, size: 30_000)
    episodes[0].path = "/track/r1"
    let scenario = try DownloadScenario(episodes)
    scenario.serve(episodes[0], .redirect(to: scenario.server.url("/cdn/r2"), status: 301))
    scenario.server.set("/cdn/r2", .redirect(to: "/edge/r3", status: 302))
    scenario.server.set(
      "/edge/r3", .redirect(to: scenario.server.url("/files/real.mp3"), status: 307))
    scenario.server.set("/files/real.mp3", DownloadScenario.plainRoute(episodes[0]))
    let result = try scenario.download()
    XCTAssertEqual(result.status, 0, result.stderr)
    for path in ["/track/r1", "/cdn/r2", "/edge/r3", "/files/real.mp3"] {
      XCTAssertEqual(scenario.server.requests(for: path).count, 1, path)
    }
    scenario.assertEpisodesHold(episodes)
  }

  func testOne404DoesNotStopTheOthers() throws {
    let episodes = FeedFixture.episodes(3, size: 20_000)
    let scenario = try DownloadScenario(episodes)
    let missing = episodes[1]
    scenario.serve(missing, .status(404, body: "Not here\n"))
    let result = try scenario.download("--all")
    XCTAssertEqual(result.status, 1, result.stderr)
    scenario.assertEpisodesHold([episodes[0], episodes[2]])
    XCTAssertEqual(scenario.gets(missing).count, 1, "a 404 is final, not retried")
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    let line = result.stderrLines.first ?? ""
    XCTAssertTrue(line.contains(scenario.server.url(missing.path)), line)
    XCTAssertTrue(line.contains("404"), line)
    XCTAssertTrue(result.stdout.contains("2 downloaded, 0 skipped, 1 failed"), result.stdout)
  }
}
