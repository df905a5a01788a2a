import Downloads
import Foundation
import LoopbackServer
import PodcastKit
import Selection
import Source
import Store
import StoreTestSupport
import XCTest

/// `podcast download` in-process: which episodes a choice picks, and what a run leaves in the
/// library, against a feed on the loopback server.
final class DownloadEpisodesTests: XCTestCase {
  private var server: LoopbackServer!
  private var library: TemporaryLibrary!

  override func setUpWithError() throws {
    server = try LoopbackServer()
    library = try TemporaryLibrary()
  }

  override func tearDownWithError() throws {
    server.stop()
  }

  private func resolve(_ feed: UseCaseFeed) async throws -> ResolvedFeed {
    try await ResolveFeed(paths: library.paths, network: Network()).run(feed.url)
  }

  private func use(_ choice: DownloadEpisodes.Choice, match: String? = nil) throws
    -> DownloadEpisodes
  {
    let filter = try match.map { try EpisodePredicate(filter: EpisodeFilter(match: $0)) }
    var settings = DownloadSettings()
    settings.nameTemplate = "{title}.{ext}"
    // The bodies are not audio: tagging would only add a note to every outcome.
    settings.noTags = true
    return try DownloadEpisodes(choice: choice, filter: filter, settings: settings)
  }

  func testEachChoicePicksTheEpisodesEpisodesListsUnderThoseNumbers() async throws {
    let feed = UseCaseFeed(server: server, path: "/show.xml", count: 5)
    feed.serve()
    let resolved = try await resolve(feed)
    func urls(_ choice: DownloadEpisodes.Choice, match: String? = nil) throws -> [String] {
      try use(choice, match: match).jobs(for: resolved, feed: "show").map(\.url)
    }
    XCTAssertEqual(try urls(.newest), [feed.enclosure(5)])
    XCTAssertEqual(try urls(.latest(2)), [feed.enclosure(5), feed.enclosure(4)])
    XCTAssertEqual(try urls(.all).count, 5)
    XCTAssertEqual(
      try urls(.indexes(EpisodeSelection(parsing: ["2", "4-5"]))),
      [feed.enclosure(4), feed.enclosure(2), feed.enclosure(1)])
    // A filter narrows what is counted: the newest matching one, not the newest overall.
    XCTAssertEqual(try urls(.newest, match: "bonus"), [feed.enclosure(4)])
    // A selection keeps its own numbers and drops those that do not match.
    XCTAssertEqual(
      try urls(.indexes(EpisodeSelection(parsing: ["1-3"])), match: "bonus"), [feed.enclosure(4)])
  }

  func testAChoiceTheFeedCannotMeetSaysWhy() async throws {
    let feed = UseCaseFeed(server: server, path: "/show.xml", count: 3)
    feed.serve()
    let resolved = try await resolve(feed)
    XCTAssertThrowsError(
      try use(.indexes(EpisodeSelection(parsing: ["7"]))).jobs(for: resolved, feed: "show")
    ) { error in
      XCTAssertEqual(error as? SelectionError, .outOfRange(7, count: 3))
    }
    XCTAssertThrowsError(try use(.all, match: "nothing like it").jobs(for: resolved, feed: "show"))
    { error in
      XCTAssertEqual(error as? DownloadEpisodesError, .noMatch(feed: "show"))
    }
    let empty = UseCaseFeed(server: server, path: "/empty.xml", count: 0)
    empty.serve()
    let emptyFeed = try await resolve(empty)
    XCTAssertThrowsError(try use(.newest).jobs(for: emptyFeed, feed: "empty")) {
      error in
      XCTAssertEqual(error as? DownloadEpisodesError, .noEpisodes(feed: "empty"))
    }
  }

  func testARunPutsTheEpisodesInTheirFolderWithItsPlaylistAndTellsTheReporter() async throws {
    let feed = UseCaseFeed(server: server, path: "/show.xml", count: 3)
    feed.serve()
    let download = try use(.latest(2))
    let jobs = try download.jobs(for: try await resolve(feed), feed: "show")
    let reporter = RecordingReporter()
    let store = try library.store()
    let results = await download.perform(
      jobs, library: Library(store: store), network: Network(), reporter: reporter)

    let folder = library.paths.episodes + "/Show"
    XCTAssertEqual(
      results.map(\.outcome),
      [
        .downloaded(file: folder + "/Episode 3.mp3", bytes: Int64(feed.body(3).count)),
        .downloaded(file: folder + "/Episode 2 (bonus).mp3", bytes: Int64(feed.body(2).count)),
      ])
    XCTAssertEqual(FileManager.default.contents(atPath: folder + "/Episode 3.mp3"), feed.body(3))
    XCTAssertEqual(reporter.results.count, 2)
    XCTAssertEqual(reporter.batches, 1)
    XCTAssertTrue(reporter.allBatchesEnded)
    XCTAssertEqual(reporter.problems, [])
    let playlist = try String(contentsOfFile: folder + "/Show.m3u8", encoding: .utf8)
    XCTAssertTrue(playlist.contains("Episode 3.mp3"), playlist)
    XCTAssertTrue(playlist.contains("Episode 2 (bonus).mp3"), playlist)
    XCTAssertEqual(try DownloadRows(store: store).find(url: feed.enclosure(3))?.state, .done)
  }
}
