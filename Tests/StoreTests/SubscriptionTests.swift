import Basics
import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

final class SubscriptionTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
    for (name, url) in [
      ("hardcore-history", "https://feeds.example/hh"),
      ("hard-fork", "https://feeds.example/hf"),
      ("the-daily", "https://feeds.example/daily"),
    ] {
      try Subscriptions(store: store).add(
        name: name, feedURL: url, title: name.uppercased(), keep: 3)
    }
  }

  func testRoundTripKeepsEveryField() throws {
    var subscription = try Subscriptions(store: store).matching("the-daily")
    XCTAssertEqual(subscription.feedURL, "https://feeds.example/daily")
    XCTAssertEqual(subscription.title, "THE-DAILY")
    XCTAssertEqual(subscription.keep, 3)
    subscription.etag = "\"abc\""
    subscription.lastModified = "Wed, 01 May 2024 10:00:00 GMT"
    subscription.lastChecked = Date(timeIntervalSince1970: 1_714_557_600)
    subscription.lastError = "HTTP 500"
    try Subscriptions(store: store).update(subscription)
    XCTAssertEqual(try Subscriptions(store: library.store()).matching("3"), subscription)
  }

  func testNumberExactNameAndPrefixSelectASubscription() throws {
    XCTAssertEqual(try Subscriptions(store: store).matching("1").name, "hardcore-history")
    XCTAssertEqual(try Subscriptions(store: store).matching("3").name, "the-daily")
    XCTAssertEqual(try Subscriptions(store: store).matching("hard-fork").name, "hard-fork")
    XCTAssertEqual(try Subscriptions(store: store).matching("HARDC").name, "hardcore-history")
    XCTAssertEqual(try Subscriptions(store: store).matching("the").name, "the-daily")
    XCTAssertEqual(
      try Subscriptions(store: store).matching("https://feeds.example/hf").name, "hard-fork")
  }

  func testAmbiguousPrefixListsTheCandidates() {
    XCTAssertThrowsError(try Subscriptions(store: store).matching("hard")) { error in
      XCTAssertEqual(
        error as? LibraryError,
        .ambiguousSubscription("hard", candidates: ["hardcore-history", "hard-fork"]))
      XCTAssertTrue("\(error)".contains("hardcore-history, hard-fork"))
    }
  }

  func testNoMatchAndOutOfRangeNumbersAreErrors() {
    XCTAssertThrowsError(try Subscriptions(store: store).matching("radiolab")) { error in
      XCTAssertEqual(error as? LibraryError, .noSubscription("radiolab", count: 3))
    }
    XCTAssertThrowsError(try Subscriptions(store: store).matching("4")) { error in
      XCTAssertEqual(error as? LibraryError, .noSubscriptionNumber(4, count: 3))
    }
    XCTAssertThrowsError(try Subscriptions(store: store).matching("0"))
  }

  func testDuplicatesAreRefusedWithReasons() {
    XCTAssertThrowsError(
      try Subscriptions(store: store).add(
        name: "Hard-Fork", feedURL: "https://other.example/x", title: nil, keep: nil)
    ) { error in
      XCTAssertEqual(error as? LibraryError, .duplicateName("Hard-Fork"))
    }
    XCTAssertThrowsError(
      try Subscriptions(store: store).add(
        name: "another", feedURL: "https://feeds.example/hf", title: nil, keep: nil)
    ) { error in
      XCTAssertEqual(
        error as? LibraryError, .duplicateFeed(url: "https://feeds.example/hf", name: "hard-fork"))
    }
  }

  func testBadNamesAndRetentionAreRefused() {
    XCTAssertThrowsError(
      try Subscriptions(store: store).add(
        name: "42", feedURL: "https://x.example/1", title: nil, keep: nil))
    XCTAssertThrowsError(
      try Subscriptions(store: store).add(
        name: " ", feedURL: "https://x.example/2", title: nil, keep: nil))
    XCTAssertThrowsError(
      try Subscriptions(store: store).add(
        name: "ok", feedURL: "https://x.example/3", title: nil, keep: 0)
    ) { error in
      XCTAssertEqual(error as? LibraryError, .invalidKeep(0))
    }
  }

  func testRemovingRenumbersAndDropsItsEpisodes() throws {
    let first = try Subscriptions(store: store).matching("1")
    let id = first.id
    try EpisodeLog(store: store).record(
      subscriptionId: id,
      episodes: [SeenEpisode(guid: "a", enclosureURL: nil, title: "A", published: nil)])
    try Subscriptions(store: store).remove(id: id)
    XCTAssertEqual(try Subscriptions(store: store).matching("1").name, "hard-fork")
    XCTAssertEqual(try EpisodeLog(store: store).episodes(subscriptionId: id), [])
    XCTAssertThrowsError(try Subscriptions(store: store).remove(id: id))
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
    try Subscriptions(store: store).remove(id: Subscriptions(store: store).matching("1").id)
    XCTAssertNil(
      try DownloadRows(store: store).find(key: keys[0]), "its run is gone: nobody will start it")
    XCTAssertNotNil(try DownloadRows(store: store).find(key: keys[1]), "its run is still running")
  }

  func testAvailableNameAddsASuffix() throws {
    XCTAssertEqual(
      try Subscriptions(store: store).availableName(basedOn: "the-daily"), "the-daily-2")
    XCTAssertEqual(try Subscriptions(store: store).availableName(basedOn: "radiolab"), "radiolab")
  }
}
