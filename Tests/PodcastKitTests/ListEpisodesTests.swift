import Foundation
import Model
import PodcastKit
import Selection
import Store
import StoreTestSupport
import XCTest

/// `episodes` without the command line: the numbers shown after filters and the limit, and
/// each episode's status from the library's downloads and the user's marks, read only.
final class ListEpisodesTests: XCTestCase {
  private var fixture: UseCaseFixture!
  private var feed: String!

  override func setUpWithError() throws {
    fixture = try UseCaseFixture()
    feed = fixture.serveFeed(title: "Show", count: 5)
  }

  override func tearDown() {
    fixture = nil
  }

  private var list: ListEpisodes { ListEpisodes(paths: fixture.paths, network: fixture.network) }

  private func states(_ listing: ListEpisodes.Listing) -> [String] {
    listing.indexes.map { listing.status(at: $0).state }
  }

  func testWithoutALibraryEveryEpisodeIsNewAndNoLibraryIsCreated() async throws {
    let listing = try await list.run(feed: feed)

    XCTAssertEqual(listing.podcast.title, "Show")
    XCTAssertEqual(listing.indexes, [1, 2, 3, 4, 5])
    XCTAssertEqual(listing.total, 5)
    XCTAssertFalse(listing.filtered)
    XCTAssertEqual(states(listing), ["new", "new", "new", "new", "new"])
    XCTAssertFalse(fixture.libraryExists)
  }

  func testTheLimitKeepsTheNewestAndIsNoFilter() async throws {
    let listing = try await list.run(feed: feed, limit: 2)

    XCTAssertEqual(listing.indexes, [1, 2])
    XCTAssertEqual(listing.total, 5)
    XCTAssertFalse(listing.filtered)
  }

  func testAFilteredListingKeepsTheFeedsOwnNumbersBeforeTheLimit() async throws {
    var filter = EpisodeFilter()
    filter.exclude = "Episode [45]"

    let listing = try await list.run(feed: feed, filter: filter, limit: 2)

    XCTAssertEqual(listing.indexes, [3, 4], "episodes 5 and 4 are numbers 1 and 2")
    XCTAssertEqual(listing.episodes[listing.indexes[0] - 1].title, "Episode 3")
    XCTAssertTrue(listing.filtered)
    XCTAssertEqual(listing.total, 5)
  }

  func testStatusesComeFromDownloadsAndMarksAndAFileOutranksAMark() async throws {
    let episodes = try await list.run(feed: feed).episodes
    // 1: downloaded and marked skip; 2: downloaded, its file since deleted; 3: marked skip;
    // 4: marked downloaded; 5: nothing.
    try fixture.finishedDownload(
      "Show/five.mp3", url: fixture.enclosure("/feed.xml", 5), feedURL: feed)
    let gone = try fixture.finishedDownload(
      "Show/four.mp3", url: fixture.enclosure("/feed.xml", 4), feedURL: feed)
    try FileManager.default.removeItem(atPath: gone)
    let store = try fixture.store()
    try EpisodeMarks(store: store).mark([episodes[0], episodes[2]], as: .skip, feedURL: feed)
    try EpisodeMarks(store: store).mark([episodes[3]], as: .downloaded, feedURL: feed)

    let listing = try await list.run(feed: feed)

    // The deleted one says so (not `new`: sync leaves it alone), with no file and no progress.
    XCTAssertEqual(states(listing), ["downloaded", "deleted", "skipped", "downloaded", "new"])
    XCTAssertNil(listing.status(at: 2).download.file)
    XCTAssertEqual(listing.status(at: 2).progress, 0)
    XCTAssertEqual(
      listing.status(at: 1).download.file, fixture.paths.episodes + "/Show/five.mp3")
    XCTAssertEqual(listing.status(at: 1).progress, 1)
    XCTAssertEqual(listing.status(at: 3).progress, 0)
  }

  func testAnEpisodeWhoseURLChangedIsStillKnownAsDownloaded() async throws {
    // Downloaded from the feed's old address for episode 5, which has the same GUID.
    let episodes = try await list.run(feed: feed).episodes
    let file = fixture.paths.episodes + "/Show/five.mp3"
    try FileManager.default.createDirectory(
      atPath: fixture.paths.episodes + "/Show", withIntermediateDirectories: true)
    XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("audio".utf8)))
    try fixture.store().seed(
      DownloadRecord(
        url: "https://old-cdn.example/five.mp3", podcastTitle: "Show", episodeTitle: "",
        state: .done, partialPath: fixture.paths.partial(for: "old"), file: file,
        episodeKey: EpisodeIdentity.distinctKeys(of: episodes)[0].first, feedURL: feed))

    let listing = try await list.run(feed: feed)

    XCTAssertEqual(listing.status(at: 1).state, "downloaded")
    XCTAssertEqual(listing.status(at: 1).download.file, file)
  }

  func testAPartialDownloadShowsHowFarItGot() async throws {
    let url = fixture.enclosure("/feed.xml", 5)
    let store = try fixture.store()
    try store.seed(
      DownloadRecord(
        url: url, podcastTitle: "Show", episodeTitle: "", state: .paused, bytes: 250,
        total: 1000, partialPath: fixture.paths.partial(for: url), feedURL: feed))
    XCTAssertTrue(
      FileManager.default.createFile(
        atPath: fixture.paths.partial(for: url), contents: Data(count: 250)))

    let listing = try await list.run(feed: feed)

    XCTAssertEqual(listing.status(at: 1).state, "partial")
    XCTAssertEqual(listing.status(at: 1).progress, 0.25)
  }
}
