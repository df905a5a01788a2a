import Foundation
import XCTest

/// `sync --playlist FILE` writes an .m3u8 of what that run downloaded, newest first, with
/// paths relative to the playlist's folder.
final class PlaylistCommandTests: LibraryTestCase {
  func testSyncPlaylistListsWhatTheRunFetchedNewestFirst() throws {
    let alpha = Show("alpha", episodes: 2, on: server)
    let beta = Show("beta", episodes: 1, on: server)
    beta.publish(2)  // beta's episode 3 is the newest; episodes of one number share a day
    for show in [alpha, beta] {
      XCTAssertEqual(
        try podcast("subscribe", show.feedURL, "--name", show.slug, "--first", "all").status, 0)
    }
    let playlist = binary.library + "/run.m3u8"

    let result = try podcast("sync", "--playlist", playlist)

    XCTAssertEqual(result.status, 0, result.stderr)
    let text = try String(contentsOfFile: playlist, encoding: .utf8)
    let expected = [
      ("beta show", beta.episode(3)), ("alpha show", alpha.episode(2)),
      ("beta show", beta.episode(2)), ("alpha show", alpha.episode(1)),
      ("beta show", beta.episode(1)),
    ].flatMap { show, episode in
      [
        "#EXTINF:-1,\(show) - \(episode.title)",
        "Episodes/\(show)/\(DownloadScenario.day(episode.published)) \(episode.title).mp3",
      ]
    }
    XCTAssertEqual(text, (["#EXTM3U"] + expected).joined(separator: "\n") + "\n")
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      XCTAssertTrue(
        FileManager.default.fileExists(atPath: binary.library + "/" + line), "\(line) exists")
    }

    let again = try podcast("sync", "--playlist", playlist)

    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertEqual(
      try String(contentsOfFile: playlist, encoding: .utf8), "#EXTM3U\n",
      "a run that fetched nothing writes an empty playlist")
  }

  func testAPlaylistThatCannotBeWrittenIsOneLineAndExitOne() throws {
    let show = Show("alpha", episodes: 1, on: server)
    XCTAssertEqual(try podcast("subscribe", show.feedURL, "--name", "alpha").status, 0)

    let result = try podcast("sync", "--playlist", binary.library + "/missing/dir/run.m3u8")

    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.stderr.split(separator: "\n").filter { $0.contains("playlist") }.count, 1,
      result.stderr)
    XCTAssertEqual(binary.episodeFiles().count, 1, "the episode itself is still downloaded")
  }
}
