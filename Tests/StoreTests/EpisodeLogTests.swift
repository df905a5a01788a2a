import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// The episode log: which episodes each feed has shown, which of them is new, and where each
/// one's file is.
final class EpisodeLogTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var log: EpisodeLog!
  private var id: Int64 = 0

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
    log = EpisodeLog(store: store)
    id = try XCTUnwrap(
      Subscriptions(store: store).add(
        name: "show", feedURL: "https://f.example/rss", title: nil, keep: nil
      )
      .id)
  }

  private func episode(_ guid: String?, _ url: String?, _ title: String = "T") -> SeenEpisode {
    SeenEpisode(guid: guid, enclosureURL: url, title: title, published: nil)
  }

  func testOnlyUnseenEpisodesAreReturnedAsNew() throws {
    let first = try log.record(
      subscriptionId: id, episodes: [episode("a", "https://c.example/a.mp3"), episode("b", nil)])
    XCTAssertEqual(first.map(\.key), ["guid:a", "guid:b"])
    XCTAssertEqual(first.map(\.subscriptionId), [id, id])
    let second = try log.record(
      subscriptionId: id,
      episodes: [episode("c", nil), episode("a", "https://c.example/a.mp3"), episode("c", nil)])
    XCTAssertEqual(second.map(\.key), ["guid:c"], "a duplicate in one feed is new once")
    XCTAssertEqual(
      try log.episodes(subscriptionId: id).map(\.key),
      ["guid:a", "guid:b", "guid:c"])
    XCTAssertEqual(try log.counts()[id], 3)
  }

  func testAnEpisodeWhoseGUIDChangedButURLStayedIsNotNew() throws {
    try log.record(
      subscriptionId: id,
      episodes: [episode("old-guid", "https://dts.podtrac.com/redirect.mp3/c.example/a.mp3")])
    try log.markDownloaded(
      subscriptionId: id, key: "guid:old-guid", file: "/e/show/a.mp3")
    let new = try log.record(
      subscriptionId: id, episodes: [episode("new-guid", "https://c.example/a.mp3?ts=2")])
    XCTAssertEqual(new, [])
    let stored = try log.episodes(subscriptionId: id)
    XCTAssertEqual(stored.map(\.key), ["guid:new-guid"])
    XCTAssertEqual(stored.first?.downloadedFile, "/e/show/a.mp3", "the file stays with the episode")
  }

  func testEpisodesSharingAURLWithoutItsQueryStayDistinct() throws {
    try log.record(
      subscriptionId: id,
      episodes: [
        episode("1", "https://c.example/get.php?id=1"),
        episode("2", "https://c.example/get.php?id=2"),
      ])
    let new = try log.record(
      subscriptionId: id,
      episodes: [
        episode("3", "https://c.example/get.php?id=3"),
        episode("2", "https://c.example/get.php?id=2"),
      ])
    XCTAssertEqual(new.map(\.key), ["guid:3"])
  }

  func testAStillListedEpisodeIsNotTakenForARelisting() throws {
    try log.record(
      subscriptionId: id, episodes: [episode("a", "https://c.example/x.mp3")])
    let new = try log.record(
      subscriptionId: id,
      episodes: [episode("a", "https://c.example/x.mp3"), episode("b", "https://c.example/x.mp3")])
    XCTAssertEqual(new.map(\.key), ["guid:b"])
  }

  func testMarkingAnUnknownEpisodeIsAnError() throws {
    XCTAssertThrowsError(
      try log.markDownloaded(subscriptionId: id, key: "guid:zz", file: "/x")
    ) {
      XCTAssertEqual($0 as? LibraryError, .unknownEpisode(key: "guid:zz"))
    }
    XCTAssertThrowsError(try log.record(subscriptionId: 999, episodes: []))
  }

  /// A pruned file goes from its episode and from the downloads in one transaction: the
  /// episode is one without a file again, and its finished download is no longer had.
  func testAPrunedFileIsForgottenWithItsFinishedDownload() throws {
    let file = library.directory.appendingPathComponent("a.mp3").path
    XCTAssertFalse(try log.hasAny(subscriptionId: id))
    try log.record(subscriptionId: id, episodes: [episode("a", "https://c.example/a.mp3")])
    XCTAssertTrue(try log.hasAny(subscriptionId: id))
    try store.seed(
      DownloadRecord(
        url: "https://c.example/a.mp3", podcastTitle: "show", episodeTitle: "T", state: .done,
        partialPath: "", file: file, episodeKey: "guid:a", feedURL: "https://f.example/rss"))
    try log.markDownloaded(subscriptionId: id, key: "guid:a", file: file)
    XCTAssertEqual(try log.undownloaded(subscriptionId: id), [])

    try log.forgetPrunedFile(file, subscriptionId: id, key: "guid:a")
    XCTAssertEqual(try log.undownloaded(subscriptionId: id).map(\.key), ["guid:a"])
    XCTAssertNil(try DownloadRows(store: store).find(url: "https://c.example/a.mp3"))
  }
}
