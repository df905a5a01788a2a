import Basics
import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// The subscriptions front: adding, matching a user's word, renaming, removing, and linking a
/// subscription to the URL the account's server knows it by.
final class SubscriptionsTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var subscriptions: Subscriptions!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
    subscriptions = Subscriptions(store: store)
    for (name, url) in [
      ("hardcore-history", "https://feeds.example/hh"),
      ("hard-fork", "https://feeds.example/hf"),
      ("the-daily", "https://feeds.example/daily"),
    ] {
      try subscriptions.add(
        name: name, feedURL: url, title: name.uppercased(), keep: 3)
    }
  }

  func testRoundTripKeepsEveryField() throws {
    var subscription = try subscriptions.matching("the-daily")
    XCTAssertEqual(subscription.feedURL, "https://feeds.example/daily")
    XCTAssertEqual(subscription.title, "THE-DAILY")
    XCTAssertEqual(subscription.keep, 3)
    subscription.etag = "\"abc\""
    subscription.lastModified = "Wed, 01 May 2024 10:00:00 GMT"
    subscription.lastChecked = Date(timeIntervalSince1970: 1_714_557_600)
    subscription.lastError = "HTTP 500"
    try subscriptions.update(subscription)
    XCTAssertEqual(try Subscriptions(store: library.store()).matching("3"), subscription)
  }

  func testNumberExactNameAndPrefixSelectASubscription() throws {
    XCTAssertEqual(try subscriptions.matching("1").name, "hardcore-history")
    XCTAssertEqual(try subscriptions.matching("3").name, "the-daily")
    XCTAssertEqual(try subscriptions.matching("hard-fork").name, "hard-fork")
    XCTAssertEqual(try subscriptions.matching("HARDC").name, "hardcore-history")
    XCTAssertEqual(try subscriptions.matching("the").name, "the-daily")
    XCTAssertEqual(
      try subscriptions.matching("https://feeds.example/hf").name, "hard-fork")
  }

  func testAmbiguousPrefixListsTheCandidates() {
    XCTAssertThrowsError(try subscriptions.matching("hard")) { error in
      XCTAssertEqual(
        error as? LibraryError,
        .ambiguousSubscription("hard", candidates: ["hardcore-history", "hard-fork"]))
      XCTAssertTrue("\(error)".contains("hardcore-history, hard-fork"))
    }
  }

  func testNoMatchAndOutOfRangeNumbersAreErrors() {
    XCTAssertThrowsError(try subscriptions.matching("radiolab")) { error in
      XCTAssertEqual(error as? LibraryError, .noSubscription("radiolab", count: 3))
    }
    XCTAssertThrowsError(try subscriptions.matching("4")) { error in
      XCTAssertEqual(error as? LibraryError, .noSubscriptionNumber(4, count: 3))
    }
    XCTAssertThrowsError(try subscriptions.matching("0"))
  }

  func testDuplicatesAreRefusedWithReasons() {
    XCTAssertThrowsError(
      try subscriptions.add(
        name: "Hard-Fork", feedURL: "https://other.example/x", title: nil, keep: nil)
    ) { error in
      XCTAssertEqual(error as? LibraryError, .duplicateName("Hard-Fork"))
    }
    XCTAssertThrowsError(
      try subscriptions.add(
        name: "another", feedURL: "https://feeds.example/hf", title: nil, keep: nil)
    ) { error in
      XCTAssertEqual(
        error as? LibraryError, .duplicateFeed(url: "https://feeds.example/hf", name: "hard-fork"))
    }
  }

  func testBadNamesAndRetentionAreRefused() {
    XCTAssertThrowsError(
      try subscriptions.add(
        name: "42", feedURL: "https://x.example/1", title: nil, keep: nil))
    XCTAssertThrowsError(
      try subscriptions.add(
        name: " ", feedURL: "https://x.example/2", title: nil, keep: nil))
    XCTAssertThrowsError(
      try subscriptions.add(
        name: "ok", feedURL: "https://x.example/3", title: nil, keep: 0)
    ) { error in
      XCTAssertEqual(error as? LibraryError, .invalidKeep(0))
    }
  }

  func testRemovingRenumbersAndDropsItsEpisodes() throws {
    let first = try subscriptions.matching("1")
    let id = first.id
    try EpisodeLog(store: store).record(
      subscriptionId: id,
      episodes: [SeenEpisode(guid: "a", enclosureURL: nil, title: "A", published: nil)])
    try subscriptions.remove(id: id)
    XCTAssertEqual(try subscriptions.matching("1").name, "hard-fork")
    XCTAssertEqual(try EpisodeLog(store: store).episodes(subscriptionId: id), [])
    XCTAssertThrowsError(try subscriptions.remove(id: id))
  }

  /// What a sync queued for itself and never began goes with the subscription once that sync
  /// is gone (killed); while it runs, the download is still its to start.
  func testRemovingForgetsUnstartedDownloadsOfADeadRunButNotOfALiveOne() throws {
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let queued = { (url: String, owner: ProcessOwner) in
      QueuedDownload(
        url: url, feedURL: "https://feeds.example/hh", identityKeys: ["guid:\(url)"],
        owner: owner)
    }
    let dead = ProcessOwner(
      pid: ended.processIdentifier, started: 1, boot: ProcessOwner.currentBoot)
    let keys = try DownloadRows(store: store).queue([
      queued("https://c.example/dead.mp3", dead), queued("https://c.example/live.mp3", .current),
    ])
    try subscriptions.remove(id: subscriptions.matching("1").id)
    XCTAssertNil(
      try DownloadRows(store: store).find(key: keys[0]), "its run is gone: nobody will start it")
    XCTAssertNotNil(try DownloadRows(store: store).find(key: keys[1]), "its run is still running")
  }

  func testAvailableNameAddsASuffix() throws {
    XCTAssertEqual(
      try subscriptions.availableName(basedOn: "the-daily"), "the-daily-2")
    XCTAssertEqual(try subscriptions.availableName(basedOn: "radiolab"), "radiolab")
  }

  func testTheNameFollowingAFeedIsAnotherSubscriptionsOnly() throws {
    let fork = try subscriptions.matching("hard-fork")
    XCTAssertNil(try subscriptions.name(following: fork.feedURL, except: fork.id))
    XCTAssertEqual(
      try subscriptions.name(following: fork.feedURL, except: fork.id + 100), "hard-fork")
    XCTAssertNil(try subscriptions.name(following: "https://feeds.example/none", except: 0))
  }

  /// What the server knows a subscription by is recorded only for a subscription the library
  /// has: found by that URL (or the feed it names), or by its name.
  func testLinkingRecordsTheURLTheServerKnowsASubscriptionBy() throws {
    let history = try subscriptions.matching("hardcore-history")
    XCTAssertEqual(try subscriptions.link(serverURL: "https://feeds.example/hh")?.id, history.id)
    XCTAssertNil(try subscriptions.link(serverURL: "https://elsewhere.example/feed"))
    try subscriptions.link(named: "the-daily", serverURL: "https://server.example/daily")
    try subscriptions.link(named: "nobody", serverURL: "https://server.example/nobody")
    let daily = try subscriptions.matching("the-daily")
    XCTAssertEqual(
      try store.accountFeeds(),
      [history.id: "https://feeds.example/hh", daily.id: "https://server.example/daily"])
  }
}
