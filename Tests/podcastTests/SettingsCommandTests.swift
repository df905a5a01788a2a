import Foundation
import LoopbackServer
import XCTest

/// Per-subscription settings: `subscribe` and `set` store them, `subscriptions --json` shows
/// them under `settings`, sync applies them, and OPML carries them.
final class SettingsCommandTests: LibraryTestCase {
  private func settings(_ name: String) throws -> [String: Any] {
    let row = try XCTUnwrap(try subscriptions().first { $0["name"] as? String == name })
    return try XCTUnwrap(row["settings"] as? [String: Any], "\(row)")
  }

  func testSubscribeAndSetStoreSettingsThatSyncApplies() throws {
    let mixed = MixedFeed()
    let feedURL = mixed.serve(on: server)
    let folder = binary.library + "/Elsewhere"
    let subscribed = try podcast(
      "subscribe", feedURL, "--name", "mixed", "--match", "^full", "--exclude", "revisited",
      "--first", "2", "--name-template", "{index} {title}.{ext}", "--episodes-dir", folder,
      "--concurrency", "2", "--limit-rate", "2M", "--no-tags")
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    let stored = try settings("mixed")
    XCTAssertEqual(stored["match"] as? String, "^full")
    XCTAssertEqual(stored["exclude"] as? String, "revisited")
    XCTAssertEqual(stored["first"] as? String, "2")
    XCTAssertEqual(stored["nameTemplate"] as? String, "{index} {title}.{ext}")
    XCTAssertEqual(stored["episodesDir"] as? String, folder)
    XCTAssertEqual(stored["concurrency"] as? Int, 2)
    XCTAssertEqual(stored["limitRate"] as? Int, 2 * 1_048_576)
    XCTAssertEqual(stored["tags"] as? Bool, false)
    XCTAssertTrue(stored["keep"] is NSNull)
    XCTAssertTrue(stored["since"] is NSNull)

    let changed = try podcast("set", "mixed", "--keep", "5", "--type", "full", "--unset", "exclude")
    XCTAssertEqual(changed.status, 0, changed.stderr)
    let after = try settings("mixed")
    XCTAssertEqual(after["keep"] as? Int, 5)
    XCTAssertEqual(after["type"] as? String, "full")
    XCTAssertTrue(after["exclude"] is NSNull, "--unset exclude")
    XCTAssertEqual(after["match"] as? String, "^full", "untouched settings stay")

    // First sync: the two newest of the episodes matching ^full (1 and 4, as the rerun is no
    // longer excluded), named by the template, in the subscription's own folder.
    let synced = try podcast("sync")
    XCTAssertEqual(synced.status, 0, synced.stderr)
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/Mixed Show")) ?? []
    XCTAssertEqual(
      files.sorted(),
      ["1 Full - The Harbour.mp3", "4 Full - The Lighthouse (Revisited).mp3", "Mixed Show.m3u8"],
      "files in \(folder), with the podcast folder's playlist")
    XCTAssertEqual(binary.episodeFiles(), [], "nothing in the library's own Episodes")
    let fetched = (1...8).filter { !server.requests(for: mixed.episode($0).path).isEmpty }
    XCTAssertEqual(fetched, [1, 4])

    let table = try podcast("subscriptions")
    XCTAssertTrue(table.stdout.contains("keep 5"), table.stdout)
    XCTAssertTrue(table.stdout.contains("match ^full"), table.stdout)
  }

  func testFirstNoneTakesNothingUntilSomethingNewIsPublished() throws {
    let show = Show("quiet", episodes: 4, on: server)
    XCTAssertEqual(
      try podcast("subscribe", show.feedURL, "--name", "quiet", "--first", "none").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    assertEpisodeFiles([])
    show.publish(1)
    XCTAssertEqual(try podcast("sync").status, 0)
    assertEpisodeFiles([show.episode(5)])
  }

  func testBadSettingsAreUsageErrors() throws {
    let show = Show("strict", episodes: 1, on: server)
    try subscribe(show)
    for arguments in [
      ["set", "strict", "--first", "some"], ["set", "strict", "--limit-rate", "fast"],
      ["set", "strict", "--unset", "colour"], ["set", "strict", "--min-duration", "ten"],
      ["subscribe", show.feedURL, "--name", "again", "--concurrency", "0"],
    ] {
      let result = try binary.run(arguments)
      XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
      XCTAssertEqual(result.stderrLines.filter { $0.hasPrefix("Error:") }.count, 1, result.stderr)
    }
    XCTAssertEqual(try podcast("set", "nobody", "--keep", "3").status, 1)
  }

  func testSettingsSurviveAnOPMLRoundTrip() throws {
    let a = Show("alpha", episodes: 1, on: server)
    let b = Show("beta", episodes: 1, on: server)
    XCTAssertEqual(
      try podcast(
        "subscribe", a.feedURL, "--name", "alpha", "--keep", "3", "--match", "^Full & <more>",
        "--match-in", "title,description", "--since", "30d", "--until", "2025-01-31",
        "--min-duration", "10m", "--max-duration", "1h30m", "--type", "bonus", "--first", "all",
        "--name-template", "{date} {title}.{ext}", "--episodes-dir", binary.library + "/A",
        "--concurrency", "3", "--limit-rate", "500k", "--no-tags", "--delete-played", "7d",
        "--share-with-account"
      ).status, 0)
    try subscribe(b)
    let before = try subscriptions()
    let opml = binary.library + "/backup.opml"
    XCTAssertEqual(try podcast("export", opml).status, 0)
    let text = try String(contentsOfFile: opml, encoding: .utf8)
    XCTAssertTrue(text.contains("podcast:match="), text)

    var other = try PodcastBinary()
    defer { try? FileManager.default.removeItem(atPath: other.library) }
    other.environment["PODCAST_LIBRARY"] = other.library
    let imported = try other.run(["import", opml])
    XCTAssertEqual(imported.status, 0, imported.stderr)
    let after = try XCTUnwrap(
      try other.run(["subscriptions", "--json"]).json() as? [[String: Any]])
    XCTAssertEqual(after.count, 2)
    for (old, new) in zip(before, after) {
      XCTAssertEqual(new["name"] as? String, old["name"] as? String)
      let oldSettings = try XCTUnwrap(old["settings"] as? NSDictionary)
      let newSettings = try XCTUnwrap(new["settings"] as? NSDictionary)
      XCTAssertEqual(newSettings, oldSettings, "\(old["name"] ?? "")")
    }
  }

  /// `--unset keep --keep 3` says two things of one setting: a usage error that names both,
  /// and the stored settings stay as they were (before, `--keep 3` was dropped in silence).
  func testUnsettingAndSettingOneSettingAtOnceIsRefused() throws {
    let show = Show("clash", episodes: 1, on: server)
    try subscribe(show, keep: 5)
    for (words, message) in [
      (["--unset", "keep", "--keep", "3"], "--unset keep and --keep 3 name one setting; give one"),
      (["--no-tags", "--unset", "tags"], "--unset tags and --no-tags name one setting; give one"),
      (
        ["--match", "x", "--unset", "match"],
        "--unset match and --match x name one setting; give one"
      ),
    ] {
      let result = try binary.run(["set", "clash"] + words)
      XCTAssertEqual(result.status, 64, "\(words): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains("Error: \(message)"), "\(words): \(result.stderr)")
    }
    let stored = try settings("clash")
    XCTAssertEqual(stored["keep"] as? Int, 5)
    XCTAssertTrue(stored["match"] is NSNull)
    XCTAssertTrue(stored["tags"] is NSNull)
  }

  /// A negative number is refused for its value, on every number option, not taken for an
  /// unknown option with a missing value.
  func testANegativeNumberIsRefusedForItsValue() throws {
    let show = Show("negative", episodes: 2, on: server)
    try subscribe(show)
    for (arguments, message) in [
      (["set", "negative", "--keep", "-1"], "--keep must be at least 1"),
      (
        ["subscribe", show.feedURL, "--name", "again", "--keep", "-1"], "--keep must be at least 1"
      ),
      (["download", "negative", "--latest", "-2"], "--latest must be at least 1"),
      (["episodes", "negative", "--limit", "-1"], "--limit must be at least 1"),
      (["sync", "--concurrency", "-1"], "concurrency"),
      (["set", "negative", "--concurrency", "-3"], "concurrency"),
    ] {
      let result = try binary.run(arguments)
      XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
      XCTAssertFalse(result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
  }

  /// What the table and `export` show of a subscription's feed.xml, `--json` shows too.
  func testTheJSONShowsTheFeedSettingsTheTableShows() throws {
    let show = Show("fed", episodes: 1, on: server)
    try subscribe(show)
    XCTAssertEqual(
      try podcast("set", "fed", "--write-feed", "--feed-base-url", "https://home.example/p/")
        .status, 0)
    let stored = try settings("fed")
    XCTAssertEqual(stored["writeFeed"] as? Bool, true)
    XCTAssertEqual(stored["feedBaseURL"] as? String, "https://home.example/p/")
    let table = try podcast("subscriptions").stdout
    XCTAssertTrue(table.contains("write-feed, feed-base-url https://home.example/p/"), table)
    XCTAssertEqual(try podcast("set", "fed", "--unset", "write-feed").status, 0)
    XCTAssertTrue(try settings("fed")["writeFeed"] is NSNull)
  }
}
