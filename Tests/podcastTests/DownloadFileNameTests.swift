import Foundation
import LoopbackServer
import XCTest

/// Where `podcast download` puts files: readable default names, never two episodes on one
/// path, never a path outside the Episodes directory whatever the feed says.
final class DownloadFileNameTests: XCTestCase {
  func testDefaultNameIsDateAndTitleInThePodcastFolder() throws {
    let scenario = try DownloadScenario(
      FeedFixture.episodes(2, size: 2_000), title: "Hardcore History")
    let result = try scenario.download("--all")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(
      scenario.binary.episodeFiles(),
      ["Hardcore History/2024-05-09 Episode 1.mp3", "Hardcore History/2024-05-10 Episode 2.mp3"])
    scenario.assertEpisodesHold(scenario.episodes)
  }

  /// An Episodes directory on another filesystem (here tmpfs) cannot take a hard link from the
  /// partial directory: the file is copied under a hidden name and renamed, so it still
  /// appears only when complete, and a rerun knows it.
  func testEpisodesDirectoryOnAnotherFilesystemGetsCompleteFiles() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(2, size: 300_000))
    let elsewhere = "/dev/shm/podcast-test-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: elsewhere) }
    scenario.binary.environment["PODCAST_EPISODES_DIR"] = elsewhere
    XCTAssertEqual(try scenario.download("--all").status, 0)

    let files = try FileManager.default.subpathsOfDirectory(atPath: elsewhere).sorted()
    XCTAssertEqual(
      files,
      [scenario.title] + scenario.episodes.map(scenario.defaultPath).sorted()
        + ["\(scenario.title)/\(scenario.title).m3u8"])
    for episode in scenario.episodes {
      XCTAssertEqual(
        FileManager.default.contents(atPath: elsewhere + "/" + scenario.defaultPath(episode)),
        episode.body)
    }
    XCTAssertEqual(scenario.binary.partialFiles(), [])
    let rerun = try scenario.download("--all")
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    XCTAssertTrue(rerun.stdout.hasSuffix("0 downloaded, 2 skipped, 0 failed\n"), rerun.stdout)
  }

  /// Hosting platforms serve every episode as `.../<id>/media.mp3`, often with one title.
  func testTwentyEnclosuresNamedMediaMp3GiveTwentyFiles() throws {
    let episodes = FeedFixture.episodes(20, size: 1_500).enumerated().map { offset, episode in
      var same = episode
      same.path = "/a/\(offset + 1)/media.mp3"
      same.title = "Weekly Show"
      same.published = Date(timeIntervalSince1970: 1_715_335_200)
      return same
    }
    for template in [[], ["--name-template", "{filename}.{ext}"]] {
      let scenario = try DownloadScenario(episodes)
      let result = try scenario.binary.run(["download", scenario.feedURL, "--all"] + template)
      XCTAssertEqual(result.status, 0, "\(template): \(result.stderr)")
      let files = scenario.binary.episodeFiles()
      XCTAssertEqual(Set(files).count, 20, "\(template): \(files)")
      scenario.assertEpisodesHoldBodies(episodes)
    }
  }

  func testHostileTitlesStayInsideTheEpisodesDirectory() throws {
    let hostile = [
      "../../../../etc/passwd",
      "..",
      ".",
      "a/b/../../c",
      "..\\..\\windows",
      "bell\u{7} tab\t newline\n return\r del\u{7F} csi\u{9B}31m next-line\u{85}",
      String(repeating: "x", count: 300),
      String(repeating: "é", count: 300),
      "-rf --no-preserve-root",
      "   ",
    ]
    let episodes = FeedFixture.episodes(hostile.count, size: 1_000).enumerated().map {
      offset, episode in
      var renamed = episode
      renamed.title = hostile[offset]
      return renamed
    }
    let scenario = try DownloadScenario(episodes, title: "../../Escaped/Show")
    let result = try scenario.download("--all")
    XCTAssertEqual(result.status, 0, result.stderr)
    scenario.assertEpisodesHoldBodies(episodes)

    let library = scenario.binary.library
    let top = try FileManager.default.contentsOfDirectory(atPath: library).sorted()
    XCTAssertEqual(top, [".podcast", "Episodes"], "something was written outside Episodes")
    let folders = try FileManager.default.contentsOfDirectory(
      atPath: scenario.binary.episodesDirectory)
    XCTAssertEqual(folders.count, 1, "\(folders)")
    XCTAssertFalse(FileManager.default.fileExists(atPath: library + "/../Escaped"))
    for path in scenario.binary.episodeFiles() {
      for component in path.split(separator: "/").map(String.init) {
        XCTAssertFalse(component.hasPrefix("."), "\(path): hidden or dot component")
        XCTAssertFalse(component.hasPrefix("-"), "\(path): reads as an option")
        XCTAssertLessThanOrEqual(component.utf8.count, 255, "\(path): component too long")
        XCTAssertFalse(
          component.unicodeScalars.contains { $0.properties.generalCategory == .control },
          "\(path.debugDescription): control character in a file name")
        XCTAssertFalse(component.contains("\\"), "\(path)")
        XCTAssertEqual(
          component, component.trimmingCharacters(in: .whitespaces), "\(path.debugDescription)")
      }
    }
  }

  func testNameTemplatePlaceholders() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(3, size: 2_000))
    let result = try scenario.download(
      "2", "--name-template", "{date}/{index} {filename} {guid} {title}.{ext}")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(
      scenario.binary.episodeFiles(),
      ["Test Show/2024-05-09/2 episode-2 guid-Episode-2 Episode 2.mp3"])
    scenario.assertFile(
      scenario.showDirectory + "/2024-05-09/2 episode-2 guid-Episode-2 Episode 2.mp3",
      equals: scenario.episode(2).body)
  }

  func testBadNameTemplatesAreUsageErrors() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(1, size: 1_000))
    for (template, mentions) in [
      ("{nope}.{ext}", "{nope}"), ("{title}.{ext", "closing"), ("/tmp/{title}.{ext}", "relative"),
    ] {
      let result = try scenario.download("--name-template", template)
      XCTAssertEqual(result.status, 64, "\(template): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains(mentions), "\(template): \(result.stderr)")
    }
    XCTAssertEqual(scenario.gets(scenario.episode(1)).count, 0)
    scenario.assertNothingUnderEpisodes()
  }

  /// A template must name a file inside the podcast's folder: an empty one (which wrote the
  /// episode as a file named after the podcast's folder, beside the other folders), one ending
  /// in a folder, or one climbing out with `..` is a usage error on `download`, `subscribe`,
  /// `set` and in config.toml, and nothing is fetched or stored.
  func testATemplateThatNamesNoFileInsideThePodcastsFolderIsRefused() throws {
    let scenario = try DownloadScenario(FeedFixture.episodes(2, size: 1_000))
    let templates = ["", "  ", "{season}/", "../{title}.{ext}"]
    for template in templates {
      let result = try scenario.download("--name-template", template)
      XCTAssertEqual(result.status, 64, "\(template.debugDescription): \(result.stderr)")
      XCTAssertTrue(
        result.stderr.contains("name template \"\(template)\": it must"),
        "\(template.debugDescription): \(result.stderr)")
    }
    XCTAssertEqual(scenario.gets(scenario.episode(1)).count, 0)
    scenario.assertNothingUnderEpisodes()

    let binary = scenario.binary
    XCTAssertEqual(
      try binary.run(["subscribe", scenario.feedURL, "--name", "kept"]).status, 0)
    for template in templates {
      for arguments in [
        ["set", "kept", "--name-template", template],
        ["subscribe", scenario.feedURL, "--name", "other", "--name-template", template],
      ] {
        XCTAssertEqual(try binary.run(arguments).status, 64, "\(arguments)")
      }
    }
    let listed = try binary.run(["subscriptions", "--json"])
    let rows = try XCTUnwrap(try listed.json() as? [[String: Any]])
    XCTAssertEqual(rows.count, 1)
    XCTAssertTrue(
      (rows.first?["settings"] as? [String: Any])?["nameTemplate"] is NSNull, "\(rows)")

    let config = binary.library + "/xdg/podcast"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    try "name-template = \"\"\n".write(
      toFile: config + "/config.toml", atomically: true, encoding: .utf8)
    var configured = binary
    configured.environment["XDG_CONFIG_HOME"] = binary.library + "/xdg"
    let refused = try configured.run(["subscriptions"])
    XCTAssertEqual(refused.status, 64, refused.stderr)
    XCTAssertTrue(refused.stderr.contains("config.toml:1: name-template:"), refused.stderr)
  }
}
