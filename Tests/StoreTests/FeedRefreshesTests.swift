import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// What a sync reads of the library once per run and writes once per feed.
final class FeedRefreshesTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
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

  /// A round is written first without a savepoint per feed: when one feed of it is stale,
  /// the feeds before and after it are written all the same, and nothing of the stale one is,
  /// not even the check time its record began with.
  func testAStaleFeedInARoundLeavesTheOthersWrittenAndItselfUntouched() throws {
    let subscriptions = try (1...3).map {
      try Subscriptions(store: store).add(
        name: "feed\($0)", feedURL: "https://a.example/\($0)", title: nil, keep: nil)
    }
    let log = EpisodeLog(store: store)
    let episode = { (id: Int64, guid: String) in
      SeenEpisode(
        subscriptionId: id, guid: guid, enclosureURL: "https://a.example/\(guid).mp3",
        title: guid, published: nil)
    }
    var records: [FeedRecord] = []
    for (index, subscription) in subscriptions.enumerated() {
      var checked = subscription
      checked.lastChecked = Date(timeIntervalSince1970: 1_714_557_600)
      checked.etag = "\"v\(index)\""
      var record = FeedRecord(
        subscription: checked, planned: try log.stored(subscriptionId: subscription.id).version)
      record.added = [episode(subscription.id, "e\(index)")]
      record.queued = [
        QueuedDownload(url: "https://a.example/e\(index).mp3", identityKeys: ["guid:e\(index)"])
      ]
      records.append(record)
    }
    // Another process records an episode of the second feed after the plan was made.
    try log.record(
      subscriptionId: subscriptions[1].id, episodes: [episode(subscriptions[1].id, "x")])

    let outcomes = try FeedRefreshes(store: store).record(records)
    XCTAssertEqual(outcomes.count, 3)
    XCTAssertEqual(outcomes[1], .stale)
    for index in [0, 2] {
      guard case .recorded(let keys, _) = outcomes[index] else {
        return XCTFail("feed \(index): \(outcomes[index])")
      }
      XCTAssertEqual(keys.count, 1)
      XCTAssertEqual(
        try log.episodes(subscriptionId: subscriptions[index].id).map(\.guid), ["e\(index)"])
      XCTAssertEqual(
        try DownloadRows(store: store).find(url: "https://a.example/e\(index).mp3")?.state, .queued)
      XCTAssertEqual(
        try Subscriptions(store: store).matching("feed\(index + 1)").etag, "\"v\(index)\"")
    }
    XCTAssertEqual(try log.episodes(subscriptionId: subscriptions[1].id).map(\.guid), ["x"])
    XCTAssertNil(try DownloadRows(store: store).find(url: "https://a.example/e1.mp3"))
    let stale = try Subscriptions(store: store).matching("feed2")
    XCTAssertNil(stale.lastChecked)
    XCTAssertNil(stale.etag)
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

  /// After a 304 only the subscriptions a waiting download may belong to read their episodes:
  /// one whose feed a waiting download's key names, one with an episode not yet downloaded at
  /// a waiting download's link; not one whose matching episode is downloaded already, nor one
  /// whose download is done.
  func testSyncSnapshotNamesTheSubscriptionsAWaitingDownloadMayBelongTo() throws {
    var ids: [String: Int64] = [:]
    for name in ["keyed", "linked", "downloaded", "done", "quiet"] {
      ids[name] =
        try Subscriptions(store: store).add(
          name: name, feedURL: "https://a.example/\(name).xml", title: nil, keep: nil
        ).id
    }
    let id = { (name: String) in ids[name] ?? -1 }
    for (name, file) in [("linked", nil), ("downloaded", "/e/x.mp3"), ("quiet", nil)] {
      let guid = name == "quiet" ? "other" : "shared"
      let episodes = try EpisodeLog(store: store).record(
        subscriptionId: id(name),
        episodes: [
          SeenEpisode(
            subscriptionId: id(name), guid: guid, enclosureURL: "https://cdn.example/\(guid).mp3",
            title: guid, published: nil)
        ])
      if let file {
        try EpisodeLog(store: store).markDownloaded(
          subscriptionId: id(name), key: episodes[0].key, file: file)
      }
    }
    try store.seed(
      DownloadRecord(
        url: "https://cdn.example/k.mp3", podcastTitle: "", episodeTitle: "", state: .failed,
        partialPath: "", episodeKey: "guid:k", feedURL: "https://a.example/keyed.xml"))
    try store.seed(
      DownloadRecord(
        url: "https://cdn.example/shared.mp3", podcastTitle: "", episodeTitle: "",
        state: .paused, partialPath: ""))
    try store.seed(
      DownloadRecord(
        url: "https://cdn.example/other.mp3", podcastTitle: "", episodeTitle: "", state: .done,
        partialPath: "", file: "/e/other.mp3", episodeKey: "guid:other",
        feedURL: "https://a.example/done.xml"))
    XCTAssertEqual(
      try FeedRefreshes(store: store).snapshot().unfinishedSubscriptions,
      [id("keyed"), id("linked")])
  }
}
