import Foundation
import XCTest

/// `--write-page` from the command line: on `download`, as a subscription's setting (shown by
/// `subscriptions`, carried by OPML), in config.toml; and the page kept in step with the
/// folder as sync downloads and prunes, `mark` records plays and `unsubscribe` deletes. What
/// a browser makes of the pages is `PageBrowserTests`'.
final class PageCommandTests: LibraryTestCase {
  private func page(_ folder: String) -> String {
    binary.episodesDirectory + "/" + folder + "/index.html"
  }

  private func read(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  /// The files a page offers to play, decoded, in its order.
  private func listed(_ folder: String) throws -> [String] {
    let text = try read(page(folder))
    return text.components(separatedBy: " data-file=\"").dropFirst().compactMap {
      $0.split(separator: "\"", maxSplits: 1).first.flatMap { String($0).removingPercentEncoding }
    }
  }

  func testTheSyncAfterSetWritesThePageAndItFollowsPlaysPruningAndDeletion() throws {
    let show = Show("pg", episodes: 3, on: server)
    let subscribed = try podcast("subscribe", show.feedURL, "--name", "pg", "--first", "all")
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: page("pg show")), "not asked for yet")

    let set = try podcast("set", "pg", "--write-page")
    XCTAssertEqual(set.status, 0, set.stderr)
    let table = try podcast("subscriptions")
    XCTAssertTrue(table.stdout.contains("write-page"), table.stdout)
    let row = try XCTUnwrap(try subscriptions().first)
    XCTAssertEqual((row["settings"] as? [String: Any])?["writePage"] as? Bool, true, "\(row)")

    // The run after `set`, with nothing new: the page and the index are written.
    XCTAssertEqual(try podcast("sync").status, 0)
    let day = { (number: Int) in DownloadScenario.day(show.episode(number).published) }
    let files = (1...3).reversed().map { "\(day($0)) pg episode \($0).mp3" }
    XCTAssertEqual(try listed("pg show"), files, "newest first, every file on disk")
    let index = try read(binary.episodesDirectory + "/index.html")
    XCTAssertTrue(index.contains("<a href=\"pg%20show/index.html\">"), index)
    XCTAssertTrue(index.contains("3 episodes"), index)
    XCTAssertFalse(try read(page("pg show")).contains("class=\"played\""))

    // A play marked here shows on the page.
    let marked = try podcast("mark", "pg", "1", "--played")
    XCTAssertEqual(marked.status, 0, marked.stderr)
    let text = try read(page("pg show"))
    XCTAssertEqual(text.components(separatedBy: "<span class=\"played\">Played</span>").count, 2)
    let played = try XCTUnwrap(text.range(of: "Played</span>"))
    XCTAssertNil(
      text.range(of: "pg episode 2", range: text.startIndex..<played.lowerBound),
      "the newest, episode 3, is the one played")

    // Pruned by retention: gone from the page with its file.
    XCTAssertEqual(try podcast("set", "pg", "--keep", "2").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try listed("pg show"), Array(files.prefix(2)))
    XCTAssertTrue(try read(binary.episodesDirectory + "/index.html").contains("2 episodes"))

    // A file deleted by hand is never listed once the folder is looked at again.
    try FileManager.default.removeItem(
      atPath: binary.episodesDirectory + "/pg show/" + files[1])
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try listed("pg show"), [files[0]])

    // The folder's last episode deleted: the page, the index and the shared files go.
    let gone = try podcast("unsubscribe", "pg", "--delete-files")
    XCTAssertEqual(gone.status, 0, gone.stderr)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: binary.episodesDirectory), [])
  }

  func testDownloadWritesThePageAndTheConfigFileCanAskForIt() throws {
    let show = Show("cfg", episodes: 2, on: server)
    let plain = try podcast("download", show.feedURL, "2")
    XCTAssertEqual(plain.status, 0, plain.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: page("cfg show")), "not asked")

    let asked = try podcast("download", show.feedURL, "1", "--write-page")
    XCTAssertEqual(asked.status, 0, asked.stderr)
    XCTAssertEqual(try listed("cfg show").count, 2, "the folder's episodes, this run's and before")
    for shared in ["index.html", "podcast-page.css", "podcast-page.js", "podcast-page.svg"] {
      XCTAssertTrue(
        FileManager.default.fileExists(atPath: binary.episodesDirectory + "/" + shared), shared)
    }

    let other = Show("conf", episodes: 1, on: server)
    let config = binary.library + "/xdg"
    try FileManager.default.createDirectory(
      atPath: config + "/podcast", withIntermediateDirectories: true)
    try Data("write-page = true\n".utf8).write(
      to: URL(fileURLWithPath: config + "/podcast/config.toml"))
    binary.environment["XDG_CONFIG_HOME"] = config
    let fromConfig = try podcast("download", other.feedURL)
    XCTAssertEqual(fromConfig.status, 0, fromConfig.stderr)
    XCTAssertEqual(try listed("conf show").count, 1)
    XCTAssertTrue(
      try read(binary.episodesDirectory + "/index.html").contains("conf%20show/index.html"))
  }

  func testExportAndImportCarryTheSetting() throws {
    let show = Show("opml", episodes: 1, on: server)
    try subscribe(show)
    XCTAssertEqual(try podcast("set", "opml", "--write-page").status, 0)
    let exported = try podcast("export")
    XCTAssertEqual(exported.status, 0, exported.stderr)
    XCTAssertTrue(exported.stdout.contains("podcast:writePage=\"true\""), exported.stdout)

    var other = try PodcastBinary()
    other.environment["PODCAST_LIBRARY"] = other.library
    defer { try? FileManager.default.removeItem(atPath: other.library) }
    let file = other.library + "/subscriptions.opml"
    try FileManager.default.createDirectory(
      atPath: other.library, withIntermediateDirectories: true)
    try Data(exported.stdout.utf8).write(to: URL(fileURLWithPath: file))
    XCTAssertEqual(try other.run(["import", file]).status, 0)
    let imported = try other.run(["subscriptions", "--json"])
    let rows = try XCTUnwrap(try imported.json() as? [[String: Any]])
    XCTAssertEqual((rows.first?["settings"] as? [String: Any])?["writePage"] as? Bool, true)

    XCTAssertEqual(try other.run(["set", "opml", "--unset", "write-page"]).status, 0)
    let unset = try XCTUnwrap(
      try other.run(["subscriptions", "--json"]).json() as? [[String: Any]])
    XCTAssertTrue((unset.first?["settings"] as? [String: Any])?["writePage"] is NSNull)
  }
}
