import Basics
import Feeds
import Foundation
import GRDB
import Model
import StoreTestSupport
import XCTest

@testable import Store

/// The table rows behind the public model types: every field makes the round trip, and the
/// columns hold what libraries written by earlier versions hold (text states, SQLite dates).
final class LibraryRowTests: XCTestCase {
  private let moment = Date(timeIntervalSince1970: 1_700_000_000)

  func testEveryFieldOfADownloadMakesTheRoundTrip() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    var record = DownloadRecord(
      url: "https://cdn.example/a.mp3", podcastTitle: "Show", episodeTitle: "One",
      state: .paused, bytes: 10, total: 20, partialPath: "/p/a.part",
      etag: "\"e\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT", error: "HTTP 503",
      updatedAt: moment, episodeKey: "guid:1",
      owner: ProcessOwner(pid: 42, started: 7, boot: ProcessOwner.currentBoot),
      feedURL: "https://a.example/feed",
      published: moment.addingTimeInterval(-86_400), details: "{}")
    try store.seed(record, updatedAt: moment)
    // What the transitions make of it: the paused row has no owner, its partial its key's name.
    record.owner = nil
    record.partialBoot = ProcessOwner.currentBoot
    record.partialPath = store.paths.partial(forKey: record.key)

    XCTAssertEqual(try DownloadRows(store: store).find(url: record.url), record)
    XCTAssertEqual(record.key.text, "https://a.example/feed\nguid:1")
    XCTAssertEqual(
      try columns(store, "SELECT state, updatedAt, published FROM downloads"),
      ["paused", "2023-11-14 22:13:20.000", "2023-11-13 22:13:20.000"])
  }

  func testEveryFieldOfASubscriptionMakesTheRoundTrip() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    var subscription = try Subscriptions(store: store).add(
      name: "Ärger", feedURL: "https://a.example/feed", title: nil, keep: nil)
    XCTAssertNotNil(subscription.id, "the insert gives the subscription its id")
    subscription.title = "Ärger Radio"
    subscription.keep = 3
    subscription.addedAt = moment
    subscription.lastChecked = moment.addingTimeInterval(60)
    subscription.etag = "\"e\""
    subscription.lastModified = "Tue, 14 Nov 2023 22:13:20 GMT"
    subscription.lastError = "HTTP 404"
    try Subscriptions(store: store).update(subscription)

    XCTAssertEqual(try Subscriptions(store: store).all(), [subscription])
    XCTAssertEqual(
      try columns(store, "SELECT nameKey, addedAt FROM subscriptions"),
      ["ärger", "2023-11-14 22:13:20.000"])
  }

  func testASeenEpisodeComesBackWithItsIdAndStoredKey() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    let id = try XCTUnwrap(
      Subscriptions(store: store).add(
        name: "show", feedURL: "https://a.example/f", title: nil, keep: nil
      )
      .id)
    let seen = SeenEpisode(
      guid: "1", enclosureURL: "https://cdn.example/1.mp3", title: "One", published: moment,
      firstSeen: moment)
    let added = try EpisodeLog(store: store).record(subscriptionId: id, episodes: [seen])

    let stored = try EpisodeLog(store: store).episodes(subscriptionId: id)
    XCTAssertEqual(stored, added)
    XCTAssertEqual(stored.map(\.key), [seen.key])
    XCTAssertEqual(stored.map(\.subscriptionId), [id])
    XCTAssertNotNil(stored.first?.id, "the insert gives the episode its id")
  }

  func testAMarkIsStoredByItsStateName() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    let episode = Episode(guid: "1", enclosure: Enclosure(url: "https://cdn.example/1.mp3"))
    try EpisodeMarks(store: store).mark([episode], as: .downloaded, feedURL: "https://a.example/f")

    XCTAssertEqual(
      try EpisodeMarks(store: store).all(), [EpisodeMark.key(for: episode): .downloaded])
    XCTAssertEqual(try columns(store, "SELECT state FROM episodeMarks"), ["downloaded"])
  }

  func testAnUnknownStoredStateIsAnErrorNamingTheDatabase() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    try store.seed(
      DownloadRecord(
        url: "https://cdn.example/a.mp3", podcastTitle: "", episodeTitle: "",
        partialPath: "/p/a.part"))
    try store.write { db in try db.execute(sql: "UPDATE downloads SET state = 'exploded'") }

    XCTAssertThrowsError(try DownloadRows(store: store).all()) { error in
      guard case .databaseFailed(let path, let reason)? = error as? LibraryError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(path, library.paths.database)
      XCTAssertTrue(reason.contains("exploded"), reason)
    }
  }

  private func columns(_ store: LibraryStore, _ sql: String) throws -> [String?] {
    try store.read { db in
      try Row.fetchAll(db, sql: sql).flatMap { row in
        (0..<row.count).map { row[$0] as String? }
      }
    }
  }
}
