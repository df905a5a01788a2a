import Foundation
import GRDB
import Model
import StoreTestSupport
import XCTest

@testable import Store

/// The set-based paths a large library takes: the indexed duplicate check, the one-transaction
/// import, and sync's once-per-run reads and writes.
final class LibraryScaleTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
  }

  func testDuplicateNamesAreCaseInsensitiveBeyondASCII() throws {
    try Subscriptions(store: store).add(
      name: "Ärger", feedURL: "https://a.example/1", title: nil, keep: nil)
    XCTAssertThrowsError(
      try Subscriptions(store: store).add(
        name: "äRGER", feedURL: "https://a.example/2", title: nil, keep: nil)
    ) { error in
      XCTAssertEqual(error as? LibraryError, .duplicateName("äRGER"))
    }
    var other = try Subscriptions(store: store).add(
      name: "other", feedURL: "https://a.example/3", title: nil, keep: nil)
    other.name = "ÄRGER"
    XCTAssertThrowsError(try Subscriptions(store: store).update(other)) { error in
      XCTAssertEqual(error as? LibraryError, .duplicateName("ÄRGER"))
    }
    // A subscription renamed to its own name in another case is not its own duplicate.
    var first = try Subscriptions(store: store).matching("Ärger")
    first.name = "ärger"
    try Subscriptions(store: store).update(first)
    XCTAssertEqual(try Subscriptions(store: store).availableName(basedOn: "ÄRGER"), "ÄRGER-2")
  }

  func testALibraryFromBeforeTheIndexesKeepsRefusingDuplicates() throws {
    let old = try TemporaryLibrary()
    try old.paths.prepare()
    let queue = try DatabaseQueue(path: old.paths.database)
    try LibrarySchema.migrator.migrate(queue, upTo: "v2-downloads")
    try queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO subscriptions (name, feedURL, addedAt) VALUES ('Radiolab', 'https://r.example/f', '2024-01-01 00:00:00.000')
          """)
    }
    try queue.close()
    let upgraded = try old.store()
    XCTAssertThrowsError(
      try Subscriptions(store: upgraded).add(
        name: "RADIOLAB", feedURL: "https://r.example/g", title: nil, keep: nil)
    ) { error in
      XCTAssertEqual(error as? LibraryError, .duplicateName("RADIOLAB"))
    }
    XCTAssertEqual(try Subscriptions(store: upgraded).all().map(\.name), ["Radiolab"])
  }

  func testImportAddsEachFeedOnceWithUniqueNames() throws {
    try Subscriptions(store: store).add(
      name: "show-7", feedURL: "https://feeds.example/7", title: nil, keep: nil)
    var entries = (1...600).map {
      OPMLEntry(title: "Show \($0 % 50)", feedURL: "https://feeds.example/\($0)")
    }
    // The same feed twice in one file, and a feed subscribed before the import.
    entries.append(OPMLEntry(title: "Again", feedURL: "https://feeds.example/12"))
    var settings = SubscriptionSettings()
    settings.nameTemplate = "{title}"
    entries.append(
      OPMLEntry(
        title: nil, feedURL: "https://feeds.example/kept", name: "kept", keep: 2,
        settings: settings))
    entries.append(OPMLEntry(title: nil, feedURL: "https://feeds.example/bad", name: "1234"))
    let outcomes = try SubscriptionImport(store: store).add(entries)
    XCTAssertEqual(outcomes.count, entries.count)
    let added = outcomes.compactMap { if case .added(let s) = $0 { s } else { nil } }
    let skipped = outcomes.filter { if case .alreadySubscribed = $0 { true } else { false } }
    let failed = outcomes.filter { if case .failed = $0 { true } else { false } }
    XCTAssertEqual(added.count, 600)
    XCTAssertEqual(skipped.count, 2)
    XCTAssertEqual(failed.count, 1)
    let all = try Subscriptions(store: store).all()
    XCTAssertEqual(all.count, 601)
    XCTAssertEqual(Set(all.map(\.feedURL)).count, 601)
    XCTAssertEqual(Set(all.map { $0.name.lowercased() }).count, 601)
    XCTAssertTrue(all.contains { $0.name == "show-1-2" })
    let kept = try Subscriptions(store: store).matching("kept")
    XCTAssertEqual(kept.keep, 2)
    XCTAssertEqual(try SavedSettings(store: store).of(subscriptionId: kept.id), settings)
  }

  func testRecordedRefreshesKeepNamesAndRetentionChangedMeanwhile() throws {
    var refreshed = try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/1", title: nil, keep: nil)
    var gone = try Subscriptions(store: store).add(
      name: "gone", feedURL: "https://a.example/2", title: nil, keep: nil)
    let taken = try Subscriptions(store: store).add(
      name: "taken", feedURL: "https://a.example/3", title: nil, keep: nil)
    // Another process renames it while the sync runs.
    var renamed = refreshed
    renamed.name = "renamed"
    renamed.keep = 4
    try Subscriptions(store: store).update(renamed)
    refreshed.etag = "\"v2\""
    refreshed.title = "One"
    refreshed.lastChecked = Date(timeIntervalSince1970: 1_714_557_600)
    try Subscriptions(store: store).remove(id: gone.id)
    gone.etag = "\"x\""
    var moved = taken
    moved.feedURL = "https://a.example/1"
    let outcomes = try FeedRefreshes(store: store).record(
      [refreshed, gone, moved].map { FeedRecord(subscription: $0) })
    XCTAssertEqual(
      outcomes,
      [
        .recorded(keys: [], alreadyHad: []),
        .refused(.unknownSubscription(id: gone.id)),
        .refused(.duplicateFeed(url: "https://a.example/1", name: "renamed")),
      ])
    let stored = try Subscriptions(store: store).matching("renamed")
    XCTAssertEqual(stored.keep, 4)
    XCTAssertEqual(stored.etag, "\"v2\"")
    XCTAssertEqual(stored.title, "One")
    XCTAssertEqual(stored.lastChecked, refreshed.lastChecked)
    XCTAssertEqual(try Subscriptions(store: store).matching("taken").feedURL, "https://a.example/3")
  }

  /// A plan made from the episodes stored before another process added one is not written:
  /// the planner reads and plans again instead of recording a stale choice.
  func testARecordPlannedFromEpisodesThatChangedSinceWritesNothing() throws {
    var subscription = try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/1", title: nil, keep: nil)
    let id = subscription.id
    let episode = { (guid: String) in
      SeenEpisode(
        subscriptionId: id, guid: guid, enclosureURL: "https://a.example/\(guid).mp3",
        title: guid, published: nil)
    }
    try EpisodeLog(store: store).record(subscriptionId: id, episodes: [episode("a")])
    let read = try EpisodeLog(store: store).stored(subscriptionId: id)
    try EpisodeLog(store: store).record(subscriptionId: id, episodes: [episode("b")])

    subscription.lastChecked = Date(timeIntervalSince1970: 1_714_557_600)
    var record = FeedRecord(subscription: subscription, planned: read.version)
    record.added = [episode("c")]
    record.queued = [QueuedDownload(url: "https://a.example/c.mp3", identityKeys: ["guid:c"])]
    XCTAssertEqual(try FeedRefreshes(store: store).record([record]), [.stale])
    XCTAssertEqual(
      try EpisodeLog(store: store).episodes(subscriptionId: id).map(\.guid), ["a", "b"])
    XCTAssertNil(try Subscriptions(store: store).matching("one").lastChecked)
    XCTAssertNil(try DownloadRows(store: store).find(url: "https://a.example/c.mp3"))

    record.planned = try EpisodeLog(store: store).stored(subscriptionId: id).version
    guard case .recorded(let keys, _) = try FeedRefreshes(store: store).record([record]).first
    else {
      return XCTFail("a record made from what is stored is written")
    }
    XCTAssertEqual(keys.count, 1)
    XCTAssertEqual(
      try EpisodeLog(store: store).episodes(subscriptionId: id).map(\.guid), ["a", "b", "c"])
    XCTAssertEqual(
      try DownloadRows(store: store).find(url: "https://a.example/c.mp3")?.state, .queued)
  }

  func testSyncSnapshotListsOnlyUnfinishedDownloads() throws {
    for (url, state) in [
      ("https://a.example/q", DownloadState.queued), ("https://a.example/d", .done),
      ("https://a.example/f", .failed), ("https://a.example/p", .paused),
    ] {
      try store.seed(
        DownloadRecord(
          url: url, podcastTitle: "", episodeTitle: "", state: state, partialPath: "",
          file: state == .done ? "/e/d.mp3" : nil))
    }
    XCTAssertEqual(
      Set(try FeedRefreshes(store: store).snapshot().unfinishedURLs.keys),
      ["https://a.example/q", "https://a.example/f", "https://a.example/p"])
  }
}
