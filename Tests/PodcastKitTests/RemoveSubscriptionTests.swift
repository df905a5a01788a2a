import Foundation
import Model
import PodcastKit
import SideFiles
import Store
import StoreTestSupport
import XCTest

/// `unsubscribe` without the command line: which files go with the subscription, what the
/// library forgets, and that a file that cannot be deleted stops nothing else.
final class RemoveSubscriptionTests: XCTestCase {
  private var fixture: UseCaseFixture!
  private var feed: String!

  override func setUpWithError() throws {
    fixture = try UseCaseFixture()
    feed = fixture.serveFeed(title: "Show", count: 3)
  }

  override func tearDown() {
    fixture = nil
  }

  private var remove: RemoveSubscription { RemoveSubscription(paths: fixture.paths) }

  private func subscribe() async throws -> Subscription {
    try await SubscribeToFeed(paths: fixture.paths, network: fixture.network)
      .run(feed: feed, name: "show").subscription
  }

  private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  func testWithoutDeleteFilesTheFilesStayAndOnlyTheSubscriptionGoes() async throws {
    _ = try await subscribe()
    let file = try fixture.finishedDownload(
      "Show/one.mp3", url: fixture.enclosure("/feed.xml", 1), feedURL: feed)

    let outcome = try remove.run(name: "show", deleteFiles: false)

    XCTAssertEqual(outcome.subscription.name, "show")
    XCTAssertEqual(outcome.deleted, [])
    XCTAssertTrue(exists(file))
    XCTAssertEqual(try Subscriptions(store: fixture.store()).all(), [])
    XCTAssertNotNil(
      try DownloadRows(store: fixture.store()).find(url: fixture.enclosure("/feed.xml", 1)))
  }

  func testDeleteFilesRemovesTheFeedsDownloadsTheirRecordsAndTheFolderPlaylist() async throws {
    _ = try await subscribe()
    let one = try fixture.finishedDownload(
      "Show/one.mp3", url: fixture.enclosure("/feed.xml", 1), feedURL: feed, title: "One")
    let two = try fixture.finishedDownload(
      "Show/two.mp3", url: fixture.enclosure("/feed.xml", 2), feedURL: feed, title: "Two")
    // Another podcast's episode is none of this subscription's business.
    let other = try fixture.finishedDownload(
      "Other/three.mp3", url: "https://cdn.example/three.mp3",
      feedURL: "https://other.example/feed.xml")
    let playlist = FolderPlaylist(folder: fixture.paths.episodes + "/Show")
    _ = try playlist.update(store: fixture.store())
    XCTAssertTrue(exists(playlist.path))

    let outcome = try remove.run(name: "sh", deleteFiles: true)

    XCTAssertEqual(outcome.deleted.sorted(), [one, two].sorted())
    XCTAssertEqual(outcome.failures, [])
    XCTAssertEqual(outcome.playlistFailures, [])
    XCTAssertFalse(exists(one) || exists(two))
    XCTAssertFalse(exists(playlist.path), "the folder went with its last episode")
    XCTAssertTrue(exists(other))
    let store = try fixture.store()
    XCTAssertNil(try DownloadRows(store: store).find(url: fixture.enclosure("/feed.xml", 1)))
    XCTAssertNil(try DownloadRows(store: store).find(url: fixture.enclosure("/feed.xml", 2)))
    XCTAssertNotNil(try DownloadRows(store: store).find(url: "https://cdn.example/three.mp3"))
  }

  func testAFileOutsideEpisodesIsAFailureThatKeepsItsRecordAndStopsNothingElse() async throws {
    _ = try await subscribe()
    let inside = try fixture.finishedDownload(
      "Show/one.mp3", url: fixture.enclosure("/feed.xml", 1), feedURL: feed)
    // A damaged or hand-edited database must never make podcast delete a user's other files.
    let outside = try fixture.file("notes.mp3", "mine")
    try fixture.store().seed(
      DownloadRecord(
        url: fixture.enclosure("/feed.xml", 2), podcastTitle: "Show", episodeTitle: "",
        state: .done, partialPath: fixture.paths.partial(for: "x"), file: outside,
        feedURL: feed))

    let outcome = try remove.run(name: "show", deleteFiles: true)

    XCTAssertEqual(outcome.deleted, [inside])
    XCTAssertEqual(outcome.failures.count, 1)
    if case .outsideEpisodes(let file, _)? = outcome.failures.first {
      XCTAssertEqual(file, outside)
    } else {
      XCTFail("\(outcome.failures)")
    }
    XCTAssertTrue(exists(outside))
    XCTAssertNotNil(
      try DownloadRows(store: fixture.store()).find(url: fixture.enclosure("/feed.xml", 2)),
      "the file is still there, so its record stays")
    XCTAssertEqual(try Subscriptions(store: fixture.store()).all(), [], "gone all the same")
  }

  func testAnUnknownNameIsAnErrorThatRemovesNothing() async throws {
    _ = try await subscribe()
    XCTAssertThrowsError(try remove.run(name: "nope", deleteFiles: true)) { error in
      guard case LibraryError.noSubscription = error else { return XCTFail("\(error)") }
    }
    XCTAssertEqual(try Subscriptions(store: fixture.store()).all().count, 1)
  }
}
