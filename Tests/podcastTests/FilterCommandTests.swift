import Foundation
import LoopbackServer
import XCTest

/// `--match`, `--exclude`, `--match-in`, `--since`, `--until`, `--min-duration`,
/// `--max-duration` and `--type` on `episodes`, `download` and `sync`, end to end.
final class FilterCommandTests: LibraryTestCase {
  private var mixed = MixedFeed()
  private var feedURL = ""

  override func setUpWithError() throws {
    try super.setUpWithError()
    feedURL = mixed.serve(on: server)
  }

  /// Indexes of the episodes whose enclosures the server was asked for.
  private func fetchedIndexes() -> [Int] {
    (1...mixed.items.count).filter { !server.requests(for: mixed.episode($0).path).isEmpty }
  }

  private func listedIndexes(_ arguments: String...) throws -> [Int] {
    let document = try XCTUnwrap(
      try binary.run(["episodes", feedURL, "--json"] + arguments).json() as? [String: Any])
    let episodes = try XCTUnwrap(document["episodes"] as? [[String: Any]])
    return episodes.compactMap { $0["index"] as? Int }
  }

  func testSyncWithFiltersFetchesExactlyTheMatchingEpisodes() throws {
    XCTAssertEqual(try podcast("subscribe", feedURL, "--name", "mixed", "--first", "all").status, 0)
    let result = try podcast(
      "sync", "--match", "^full:", "--exclude", "revisited|flac", "--match-in",
      "title,description", "--min-duration", "10m", "--type", "full", "--since", "2024-01-01")
    XCTAssertEqual(result.status, 0, result.stderr)
    // 1 and 6 pass everything; 6 has no episodeType, which means full. 2 is too short, 3 a
    // trailer, 4 a rerun, 5 a bonus, 7 lossless (said in its description), 8 too old.
    XCTAssertEqual(fetchedIndexes(), [1, 6])
    assertEpisodeFiles([mixed.episode(1), mixed.episode(6)])
    eventually("the server to log both downloads") {
      responses.entries.filter { $0.path.hasPrefix("/mixed/media/") }.count == 2
    }
    XCTAssertEqual(
      Set(responses.entries.filter { $0.path.hasPrefix("/mixed/media/") }.map(\.path)),
      [mixed.episode(1).path, mixed.episode(6).path], "the server log lists other enclosures")
  }

  func testEpisodesKeepsTheFeedsOwnIndexesWhenFiltered() throws {
    XCTAssertEqual(try listedIndexes("--match", "storm"), [6, 7])
    XCTAssertEqual(try listedIndexes("--type", "bonus"), [5])
    XCTAssertEqual(try listedIndexes("--type", "full", "--max-duration", "5m"), [2])
    XCTAssertEqual(
      try listedIndexes("--until", "2024-05-07"), [4, 5, 6, 7, 8], "the whole day counts")
    XCTAssertEqual(try listedIndexes("--since", "2024-05-08", "--until", "2024-05-09"), [2, 3])
    XCTAssertEqual(try listedIndexes("--match", "flac", "--match-in", "description"), [7])
    XCTAssertEqual(try listedIndexes("--exclude", "^full", "--limit", "2"), [2, 3])
    let table = try podcast("episodes", feedURL, "--match", "bonus")
    XCTAssertEqual(table.status, 0, table.stderr)
    XCTAssertTrue(
      table.stdout.split(separator: "\n").contains { $0.hasPrefix("5 ") && $0.contains("Bonus") },
      table.stdout)
  }

  func testDownloadWithFiltersTakesTheSameEpisodesAsTheirIndexes() throws {
    let trailer = try podcast("download", feedURL, "--type", "trailer")
    XCTAssertEqual(trailer.status, 0, trailer.stderr)
    XCTAssertEqual(fetchedIndexes(), [3])
    let latest = try podcast("download", feedURL, "--latest", "2", "--match", "^full")
    XCTAssertEqual(latest.status, 0, latest.stderr)
    XCTAssertEqual(fetchedIndexes(), [1, 3, 4])
    // A selection keeps only its matching indexes.
    let chosen = try podcast("download", feedURL, "5-8", "--exclude", "storm")
    XCTAssertEqual(chosen.status, 0, chosen.stderr)
    XCTAssertEqual(fetchedIndexes(), [1, 3, 4, 5, 8])
    assertEpisodeFiles([1, 3, 4, 5, 8].map(mixed.episode))
  }

  func testBadFilterValuesAreUsageErrorsNamingTheOption() throws {
    for (option, value) in [
      ("--match", "(unclosed"), ("--since", "last tuesday"), ("--min-duration", "10"),
      ("--type", "clip"), ("--match-in", "author"),
    ] {
      let result = try podcast("episodes", feedURL, option, value)
      XCTAssertEqual(result.status, 64, "\(option) \(value): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains(option), result.stderr)
    }
    let none = try podcast("download", feedURL, "--match", "nothing like this")
    XCTAssertEqual(none.status, 1)
    XCTAssertTrue(none.stderr.contains("no episode matches"), none.stderr)
    XCTAssertEqual(fetchedIndexes(), [])
  }
}
