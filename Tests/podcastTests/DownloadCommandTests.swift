import Foundation
import LoopbackServer
import XCTest

/// `podcast download`: what gets selected, what a rerun skips, and what --json reports.
final class DownloadCommandTests: XCTestCase {
  override func setUpWithError() throws {
    XCTAssertTrue(
      FileManager.default.isExecutableFile(atPath: PodcastBinary.url.path),
      "build the podcast executable first (swift build)")
  }

  func testSelectionsDownloadExactlyTheChosenEpisodes() throws {
    let cases: [(arguments: [String], indexes: [Int])] = [
      (["3"], [3]),
      (["2-5"], [2, 3, 4, 5]),
      (["1,4,9"], [1, 4, 9]),
      ([], [1]),
      (["--latest", "3"], [1, 2, 3]),
      (["--latest", "50"], Array(1...10)),
      (["--all"], Array(1...10)),
      (["2", "2-3", "3,1"], [1, 2, 3]),
    ]
    for (arguments, indexes) in cases {
      let scenario = try DownloadScenario(FeedFixture.episodes(10, size: 3_000))
      let result = try scenario.binary.run(["download", scenario.feedURL] + arguments)
      XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
      XCTAssertEqual(result.stderr, "", "\(arguments)")
      scenario.assertEpisodesHold(indexes.map(scenario.episode))
      for episode in scenario.episodes {
        let expected = indexes.contains { scenario.episode($0).guid == episode.guid } ? 1 : 0
        XCTAssertEqual(
          scenario.gets(episode).count, expected, "\(arguments): GETs of \(episode.title)")
      }
    }
  }

  func testBadSelectionsAreUsageErrorsAndDownloadNothing() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(10, size: 1_000))
    let cases: [(arguments: [String], mentions: String)] = [
      (["11"], "11"),
      (["2-12"], "episode 11 does not exist"),
      (["1,4,99"], "99"),
      (["0"], "0"),
      (["abc"], "abc"),
      (["5-2"], "5-2"),
      (["1,,2"], "1,,2"),
      (["3", "--all"], "--all"),
      (["--latest", "0"], "--latest"),
    ]
    for (arguments, mentions) in cases {
      let result = try scenario.binary.run(["download", scenario.feedURL] + arguments)
      XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains(mentions), "\(arguments): \(result.stderr)")
      XCTAssertEqual(result.stdout, "", "\(arguments)")
    }
    for episode in scenario.episodes {
      XCTAssertEqual(scenario.gets(episode).count, 0, "\(episode.title) was fetched")
    }
    scenario.assertNothingUnderEpisodes()
    XCTAssertEqual(scenario.binary.partialFiles(), [])
  }

  func testOutOfRangeMessageSaysHowManyEpisodesThereAre() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(10, size: 1_000))
    let result = try scenario.download("11")
    XCTAssertEqual(result.status, 64)
    XCTAssertTrue(result.stderr.contains("episode 11 does not exist"), result.stderr)
    XCTAssertTrue(result.stderr.contains("10 episodes"), result.stderr)
  }

  /// A usage error found once the feed is read still shows the command as the user types it,
  /// and an unknown option is named as such, not taken for a selection.
  func testUsageErrorsNameTheWholeCommandAndTheUnknownOption() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(2, size: 1_000))
    let outOfRange = try scenario.download("9999")
    XCTAssertEqual(outOfRange.status, 64, outOfRange.stderr)
    XCTAssertTrue(
      outOfRange.stderr.contains("Usage: podcast download [<options>] <feed>"), outOfRange.stderr)
    XCTAssertTrue(outOfRange.stderr.contains("See 'podcast download --help'"), outOfRange.stderr)
    let unknown = try scenario.download("1", "--frobnicate", "x")
    XCTAssertEqual(unknown.status, 64, unknown.stderr)
    XCTAssertTrue(unknown.stderr.contains("Unknown option '--frobnicate'"), unknown.stderr)
    XCTAssertFalse(unknown.stderr.contains("not a selection"), unknown.stderr)
  }

  /// A re-listed episode: two items of the feed point at one enclosure.
  func testTheSameURLNamedTwiceDownloadsOnce() throws {
    var episodes = FeedFixture.episodes(3, size: 4_000)
    episodes[1].path = episodes[0].path
    episodes[1].body = episodes[0].body
    let scenario = try DownloadScenario(episodes)
    let result = try scenario.download("1-2", "--json")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(scenario.gets(episodes[0]).count, 1)
    XCTAssertEqual(scenario.binary.episodeFiles().count, 1)
    scenario.assertEpisodesHoldBodies([episodes[0]])
    let document = try result.downloadDocument()
    XCTAssertEqual(document["downloaded"]?.count, 1, result.stdout)
  }

  func testRerunSkipsDownloadedEpisodesWithoutFetchingThem() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(4, size: 5_000))
    let first = try scenario.download("1-2")
    XCTAssertEqual(first.status, 0, first.stderr)

    let again = try scenario.download("1-3")
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertEqual(again.stderr, "")
    XCTAssertEqual(scenario.gets(scenario.episode(1)).count, 1, "episode 1 fetched again")
    XCTAssertEqual(scenario.gets(scenario.episode(2)).count, 1, "episode 2 fetched again")
    XCTAssertEqual(scenario.gets(scenario.episode(3)).count, 1)
    XCTAssertTrue(again.stdout.contains("2 skipped"), again.stdout)
    scenario.assertEpisodesHold([scenario.episode(1), scenario.episode(2), scenario.episode(3)])

    let onlySkips = try scenario.download("1")
    XCTAssertEqual(onlySkips.status, 0, onlySkips.stderr)
    XCTAssertTrue(onlySkips.stdout.contains("already downloaded"), onlySkips.stdout)
    XCTAssertEqual(scenario.gets(scenario.episode(1)).count, 1)
  }

  func testJSONReportsDownloadedSkippedAndFailed() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(3, size: 6_000))
    XCTAssertEqual(try scenario.download("1").status, 0)
    scenario.serve(scenario.episode(3), .status(404, body: "no such episode\n"))

    let result = try scenario.download("--all", "--json")
    XCTAssertEqual(result.status, 1, result.stderr)
    let document = try result.downloadDocument()
    XCTAssertEqual(Set(document.keys), ["downloaded", "skipped", "failed"])

    let downloaded = try XCTUnwrap(document["downloaded"])
    XCTAssertEqual(downloaded.count, 1)
    let second = scenario.episode(2)
    XCTAssertEqual(downloaded.first?["url"] as? String, scenario.server.url(second.path))
    XCTAssertEqual(downloaded.first?["title"] as? String, second.title)
    XCTAssertEqual(downloaded.first?["bytes"] as? Int, second.body.count)
    let file = try XCTUnwrap(downloaded.first?["file"] as? String)
    XCTAssertEqual(file, scenario.binary.episodesDirectory + "/" + scenario.defaultPath(second))
    scenario.assertFile(file, equals: second.body)

    let skipped = try XCTUnwrap(document["skipped"])
    XCTAssertEqual(
      skipped.map { $0["url"] as? String }, [scenario.server.url(scenario.episode(1).path)])
    XCTAssertEqual(skipped.first?["title"] as? String, scenario.episode(1).title)

    let failed = try XCTUnwrap(document["failed"])
    XCTAssertEqual(failed.count, 1)
    let third = scenario.episode(3)
    XCTAssertEqual(failed.first?["url"] as? String, scenario.server.url(third.path))
    XCTAssertEqual(failed.first?["title"] as? String, third.title)
    let error = try XCTUnwrap(failed.first?["error"] as? String)
    XCTAssertTrue(error.contains("404"), error)
    scenario.assertEpisodesHold([scenario.episode(1), second])
  }

  func testEpisodesJSONShowsTheDownloadedFile() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(3, size: 5_000))
    XCTAssertEqual(try scenario.download("2").status, 0)

    let listed = try scenario.binary.run(["episodes", scenario.feedURL, "--json"])
    XCTAssertEqual(listed.status, 0, listed.stderr)
    let document = try XCTUnwrap(try listed.json() as? [String: Any])
    let items = try XCTUnwrap(document["episodes"] as? [[String: Any]])
    XCTAssertEqual(items.count, 3)
    XCTAssertEqual(items[1]["state"] as? String, "downloaded")
    XCTAssertEqual((items[1]["progress"] as? NSNumber)?.doubleValue, 1)
    XCTAssertEqual(
      items[1]["file"] as? String,
      scenario.binary.episodesDirectory + "/" + scenario.defaultPath(scenario.episode(2)))
    for other in [items[0], items[2]] {
      XCTAssertEqual(other["state"] as? String, "new")
      XCTAssertEqual((other["progress"] as? NSNumber)?.doubleValue, 0)
      XCTAssertTrue(other["file"] is NSNull)
    }
  }
}
