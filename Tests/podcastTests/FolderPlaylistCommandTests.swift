import Foundation
import XCTest

/// Each podcast folder has `<folder>/<folder>.m3u8`: its downloaded episodes, newest first,
/// paths relative to the folder, kept in step by `download`, `sync` (and its prune) and
/// `unsubscribe --delete-files`.
final class FolderPlaylistCommandTests: LibraryTestCase {
  private func folder(_ show: Show) -> String { binary.episodesDirectory + "/\(show.slug) show" }

  private func playlistPath(_ show: Show) -> String {
    folder(show) + "/\(show.slug) show.m3u8"
  }

  private func playlist(_ show: Show) throws -> String {
    try String(contentsOfFile: playlistPath(show), encoding: .utf8)
  }

  /// The playlist text listing `numbers` of `show` in that order, named by the default template
  /// (or under `subfolder` of each episode, when given).
  private func expected(
    _ show: Show, _ numbers: [Int], subfolder: ((FakeEpisode) -> String)? = nil
  ) -> String {
    let lines = numbers.flatMap { number -> [String] in
      let episode = show.episode(number)
      let path =
        subfolder.map { "\($0(episode))/\(episode.title).mp3" }
        ?? "\(DownloadScenario.day(episode.published)) \(episode.title).mp3"
      return ["#EXTINF:-1,\(episode.title)", path]
    }
    return (["#EXTM3U"] + lines).joined(separator: "\n") + "\n"
  }

  func testDownloadWritesThePlaylistNewestFirstAndTheNextDownloadAddsToIt() throws {
    let show = Show("alpha", episodes: 3, on: server)

    let first = try podcast("download", show.feedURL, "3")

    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertEqual(try playlist(show), expected(show, [1]))

    let second = try podcast("download", show.feedURL, "1-2", "--concurrency", "2")

    XCTAssertEqual(second.status, 0, second.stderr)
    XCTAssertEqual(try playlist(show), expected(show, [3, 2, 1]), "by publication date")
    for line in try playlist(show).split(separator: "\n") where !line.hasPrefix("#") {
      XCTAssertTrue(
        FileManager.default.fileExists(atPath: folder(show) + "/" + line), "\(line) is relative")
    }
    XCTAssertEqual(binary.sideFiles(), ["alpha show/alpha show.m3u8"])
  }

  /// A name template with folders of its own: the playlist stays in the podcast's folder and
  /// lists each episode by its path from there.
  func testANameTemplateWithSubfoldersListsPathsIntoThem() throws {
    let show = Show("beta", episodes: 2, on: server)

    let result = try podcast(
      "download", show.feedURL, "--all", "--name-template", "{date}/{title}.{ext}")

    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(
      try playlist(show),
      expected(show, [2, 1]) { DownloadScenario.day($0.published) })
    XCTAssertEqual(
      binary.episodeFiles(),
      [1, 2].map { number in
        let episode = show.episode(number)
        return "beta show/\(DownloadScenario.day(episode.published))/\(episode.title).mp3"
      })
  }

  /// Only complete downloads: an episode cut off mid-transfer (its partial kept for a resume)
  /// is not listed until it is finished.
  func testAFailedDownloadIsNotListedUntilItFinishes() throws {
    let show = Show("gamma", episodes: 3, on: server)
    let broken = show.episode(2)
    server.set(
      broken.path,
      .sequence([
        .data(broken.body, contentType: "audio/mpeg").dropping(after: 1_000), .status(404),
      ]))

    let result = try podcast("download", show.feedURL, "--all")

    XCTAssertEqual(result.status, 1, "one episode failed")
    XCTAssertEqual(binary.partialFiles().count, 1, "its partial is kept")
    XCTAssertEqual(try playlist(show), expected(show, [3, 1]))

    show.serve()
    let again = try podcast("download", show.feedURL, "2")

    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertEqual(try playlist(show), expected(show, [3, 2, 1]))
  }

  /// The run that finishes an episode writes its folder's playlist once, in the finish round;
  /// a later run that finds the episode in place still brings a playlist deleted by hand back.
  func testARunThatFindsTheEpisodeInPlaceRestoresADeletedPlaylist() throws {
    let show = Show("zeta", episodes: 2, on: server)
    let first = try podcast("download", show.feedURL, "--all")
    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertEqual(try playlist(show), expected(show, [2, 1]))
    XCTAssertEqual(unlink(playlistPath(show)), 0)

    let again = try podcast("download", show.feedURL, "--all")

    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertEqual(try playlist(show), expected(show, [2, 1]))
  }

  func testSyncKeepsThePlaylistInStepWithWhatItDownloadsAndPrunes() throws {
    let show = Show("delta", episodes: 2, on: server)
    let subscribed = try podcast(
      "subscribe", show.feedURL, "--name", show.slug, "--keep", "2", "--first", "all")
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)

    let first = try podcast("sync")

    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertEqual(try playlist(show), expected(show, [2, 1]))

    show.publish(1)
    let second = try podcast("sync")

    XCTAssertEqual(second.status, 0, second.stderr)
    XCTAssertTrue(second.stdout.contains("pruned"), second.stdout)
    XCTAssertEqual(try playlist(show), expected(show, [3, 2]), "the pruned episode is gone")
    assertEpisodeFiles([show.episode(3), show.episode(2)])
  }

  /// The last episode gone, the playlist goes: with the folder when nothing else is in it,
  /// alone when the user keeps a file of their own there.
  func testUnsubscribeDeleteFilesRemovesThePlaylist() throws {
    let kept = Show("kept", episodes: 1, on: server)
    let emptied = Show("emptied", episodes: 1, on: server)
    for show in [kept, emptied] {
      XCTAssertEqual(try podcast("subscribe", show.feedURL, "--name", show.slug).status, 0)
    }
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try playlist(kept), expected(kept, [1]))
    XCTAssertEqual(try playlist(emptied), expected(emptied, [1]))
    let notes = folder(kept) + "/notes.txt"
    XCTAssertTrue(FileManager.default.createFile(atPath: notes, contents: Data("mine".utf8)))

    for show in [kept, emptied] {
      let result = try podcast("unsubscribe", show.slug, "--delete-files")
      XCTAssertEqual(result.status, 0, result.stderr)
    }

    XCTAssertFalse(FileManager.default.fileExists(atPath: playlistPath(kept)))
    XCTAssertTrue(FileManager.default.fileExists(atPath: notes), "the user's file stays")
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder(emptied)), "nothing left behind")
  }

  /// A playlist that cannot be written costs the download nothing: one line on stderr, exit 0.
  func testAPlaylistThatCannotBeWrittenIsANoteNotAFailure() throws {
    let show = Show("epsilon", episodes: 1, on: server)
    // Runs as root in CI, where permissions stop nothing: a directory where the playlist goes
    // makes the rename fail for anyone.
    try FileManager.default.createDirectory(
      atPath: playlistPath(show), withIntermediateDirectories: true)

    let result = try podcast("download", show.feedURL)

    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stderr.split(separator: "\n")
    XCTAssertEqual(lines.count, 1, result.stderr)
    XCTAssertTrue(lines.first?.contains(playlistPath(show)) == true, result.stderr)
    assertEpisodeFiles([show.episode(1)])
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: folder(show)).filter {
        $0.hasPrefix(".")
      }, [], "no temporary file left behind")
  }
}
