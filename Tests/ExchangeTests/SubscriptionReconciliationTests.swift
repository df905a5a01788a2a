import AccountServer
import Exchange
import Foundation
import Model
import XCTest

/// The rules of the subscription half of the exchange: what the server's changes ask of the
/// library, which change wins when both sides changed a feed, and what the journal sends.
final class SubscriptionReconciliationTests: XCTestCase {
  private let added = Date(timeIntervalSince1970: 1_800_000_000)

  private func subscription(_ id: Int64, _ name: String, _ url: String) -> Subscription {
    Subscription(id: id, name: name, feedURL: url, title: nil, keep: nil, addedAt: added)
  }

  private func rules(
    journal: [AccountChange] = [], subscriptions: [Subscription] = [],
    settings: [Int64: SubscriptionSettings] = [:], pulledBefore: Bool = true
  ) -> SubscriptionReconciliation {
    SubscriptionReconciliation(
      journal: journal, subscriptions: subscriptions, settings: settings,
      pulledBefore: pulledBefore)
  }

  private func changes(add: [String] = [], remove: [String] = []) -> SubscriptionChanges {
    SubscriptionChanges(add: add, remove: remove, timestamp: 1000)
  }

  /// `find` as the store's: by the exact URL, here without the server's URLs.
  private func finder(_ subscriptions: [Subscription]) -> (String) -> Subscription? {
    { url in subscriptions.first { $0.feedURL == url } }
  }

  func testANewFeedIsSubscribedAndOneFollowedAlreadyIsLinked() {
    let here = subscription(1, "here", "https://a.example/here.xml")
    let arrivals = rules(subscriptions: [here]).arrivals(
      changes(add: ["https://b.example/new.xml", here.feedURL, "https://b.example/new.xml"]),
      find: finder([here]))

    XCTAssertEqual(arrivals.subscribe, ["https://b.example/new.xml"], "once, though listed twice")
    XCTAssertEqual(arrivals.link, [here.feedURL])
    XCTAssertEqual(arrivals.unsubscribe, [])
  }

  func testAChangeWaitingToBeSentWinsOverWhatTheServerSays() {
    let here = subscription(1, "here", "https://a.example/here.xml")
    // Removed here and not sent yet: the server's add of it is older news (or our own echo).
    let removed = AccountChange(
      id: 7, kind: .remove, feedURL: "https://c.example/gone.xml", subscriptionId: 2)
    // Added here and not sent yet: the server's removal of it is older than the add.
    let added = AccountChange(id: 8, kind: .add, feedURL: here.feedURL, subscriptionId: 1)

    let arrivals = rules(journal: [removed, added], subscriptions: [here]).arrivals(
      changes(add: ["https://c.example/gone.xml/"], remove: [here.feedURL]), find: finder([here]))

    XCTAssertEqual(arrivals, SubscriptionReconciliation.Arrivals(), "both left as they are here")
  }

  func testTheFirstPullsRemovalsAreHistoryAndLaterOnesUnsubscribe() {
    let here = subscription(1, "here", "https://a.example/here.xml")
    let removal = changes(remove: [here.feedURL])

    XCTAssertEqual(
      rules(subscriptions: [here], pulledBefore: false).arrivals(removal, find: finder([here]))
        .unsubscribe, [])
    let later = rules(subscriptions: [here]).arrivals(removal, find: finder([here]))
    XCTAssertEqual(later.unsubscribe, [here.feedURL])
    XCTAssertEqual(later.unsubscribing, ["here"])
  }

  func testAPrivateFeedIsNotRemovedByTheServerUnlessShared() {
    let secret = subscription(1, "members", "https://m.example/feed.xml?token=abc")
    let removal = changes(remove: [secret.feedURL])

    XCTAssertEqual(
      rules(subscriptions: [secret]).arrivals(removal, find: finder([secret])).unsubscribe, [])
    var shared = SubscriptionSettings()
    shared.shareWithAccount = true
    XCTAssertEqual(
      rules(subscriptions: [secret], settings: [1: shared]).arrivals(
        removal, find: finder([secret])
      ).unsubscribe, [secret.feedURL])
  }

  func testAURLThatIsNoFeedsIsNamedNotDroppedSilently() {
    let arrivals = rules().arrivals(
      changes(add: ["file:///etc/passwd", "https://b.example/ok.xml"]), find: { _ in nil })

    XCTAssertEqual(arrivals.subscribe, ["https://b.example/ok.xml"])
    XCTAssertEqual(arrivals.notApplied.count, 1)
    XCTAssertTrue(arrivals.notApplied[0].contains("file:///etc/passwd"), "\(arrivals.notApplied)")
  }

  func testTheLastChangeOfEachFeedIsSentAlone() {
    let one = subscription(1, "one", "https://a.example/one.xml")
    let journal = [
      AccountChange(id: 1, kind: .add, feedURL: one.feedURL, subscriptionId: 1),
      AccountChange(id: 2, kind: .add, feedURL: "https://a.example/two.xml", subscriptionId: 2),
      AccountChange(id: 3, kind: .remove, feedURL: "https://a.example/two.xml", subscriptionId: 2),
      AccountChange(id: 4, kind: .remove, feedURL: one.feedURL, subscriptionId: 1),
      AccountChange(id: 5, kind: .add, feedURL: one.feedURL, subscriptionId: 1),
    ]

    let sends = rules(journal: journal, subscriptions: [one]).sends()

    XCTAssertEqual(sends.adds, [.init(subscriptionId: 1, url: one.feedURL)])
    XCTAssertEqual(sends.removes, ["https://a.example/two.xml"])
    XCTAssertEqual(sends.lastId, 5, "every row is covered, the ones not sent too")
  }

  func testARemovalGoesUnderTheURLTheServerKnowsAndAPrivateFeedNotAtAll() {
    let journal = [
      AccountChange(
        id: 1, kind: .remove, feedURL: "https://a.example/moved.xml",
        serverURL: "http://a.example/old.xml", subscriptionId: 1),
      AccountChange(
        id: 2, kind: .remove, feedURL: "https://m.example/feed.xml?token=abc", subscriptionId: 2),
      // An add of a subscription gone since: nothing to send.
      AccountChange(id: 3, kind: .add, feedURL: "https://c.example/gone.xml", subscriptionId: 3),
    ]

    let sends = rules(journal: journal).sends()

    XCTAssertEqual(sends.removes, ["http://a.example/old.xml"])
    XCTAssertEqual(sends.adds, [])
    XCTAssertEqual(sends.lastId, 3)
  }

  func testAnEmptyJournalSendsNothing() {
    XCTAssertEqual(rules().sends(), SubscriptionReconciliation.Sends())
    XCTAssertNil(rules().sends().lastId)
  }
}
