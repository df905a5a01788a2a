import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// The journal of subscription changes the library owes its account's server: written in the
/// same transaction as the change it records, by every path that makes one, only while there
/// is an account, and never for what came from the server.
final class AccountJournalTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var journal: AccountJournal!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
    journal = AccountJournal(store: store)
  }

  private func link() throws {
    try AccountState(store: store).link(
      AccountRecord(
        server: "https://sync.example", user: "ada", password: "pw", device: "box",
        api: "gpodder"))
  }

  private func changes() throws -> [String] {
    try journal.changes().map { "\($0.kind.rawValue) \($0.serverURL ?? $0.feedURL)" }
  }

  func testWithoutAnAccountNothingIsJournaled() throws {
    try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/one", title: nil, keep: nil)
    XCTAssertEqual(try changes(), [])
    try link()
    XCTAssertEqual(try changes(), ["add https://a.example/one"], "linking sends the list")
  }

  func testEveryLocalChangeIsJournaledInItsOwnTransaction() throws {
    try link()
    let one = try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/one", title: nil, keep: nil)
    _ = try SubscriptionImport(store: store).add([
      OPMLEntry(title: "Two", feedURL: "https://b.example/two")
    ])
    var moved = try Subscriptions(store: store).matching("two")
    moved.feedURL = "https://b.example/two-moved"
    XCTAssertEqual(
      try FeedRefreshes(store: store).record([FeedRecord(subscription: moved)]),
      [.recorded(keys: [], alreadyHad: [])])
    try Subscriptions(store: store).remove(id: one.id)

    XCTAssertEqual(
      try changes(),
      [
        "add https://a.example/one", "add https://b.example/two", "remove https://b.example/two",
        "add https://b.example/two-moved", "remove https://a.example/one",
      ])
  }

  func testWhatTheServerSentIsNotSentBack() throws {
    try link()
    let arrived = try Subscriptions(store: store).add(
      name: "phone", feedURL: "https://c.example/feed", title: nil, keep: nil,
      settings: SubscriptionSettings(), serverURL: "http://c.example/feed")
    XCTAssertEqual(try changes(), [])
    XCTAssertEqual(
      try AccountState(store: store).serverURLs(), [arrived.id: "http://c.example/feed"])
    XCTAssertEqual(try journal.subscription(serverURL: "HTTP://C.example/feed/")?.name, "phone")

    let removed = try journal.unsubscribeFromServer("http://c.example/feed")
    XCTAssertEqual(removed?.name, "phone")
    XCTAssertEqual(try Subscriptions(store: store).all(), [])
    XCTAssertEqual(try changes(), [])
    XCTAssertEqual(try journal.unsubscribeFromServer("http://c.example/feed"), nil)
  }

  func testTheServersURLFindsTheSubscriptionItKnowsThenTheFeedItNames() throws {
    let linked = try Subscriptions(store: store).add(
      name: "linked", feedURL: "https://a.example/moved.xml", title: nil, keep: nil,
      settings: SubscriptionSettings(), serverURL: "http://a.example/old.xml")
    let plain = try Subscriptions(store: store).add(
      name: "plain", feedURL: "https://b.example/feed.xml", title: nil, keep: nil)

    XCTAssertEqual(try journal.subscription(serverURL: "http://a.example/old.xml")?.id, linked.id)
    XCTAssertEqual(
      try journal.subscription(serverURL: "https://a.example/moved.xml")?.id, linked.id)
    XCTAssertEqual(try journal.subscription(serverURL: "http://B.example/feed.xml/")?.id, plain.id)
    XCTAssertNil(try journal.subscription(serverURL: "https://c.example/feed.xml"))
  }

  func testARemovalIsJournaledUnderTheURLTheServerKnows() throws {
    try link()
    let arrived = try Subscriptions(store: store).add(
      name: "phone", feedURL: "https://c.example/feed", title: nil, keep: nil,
      settings: SubscriptionSettings(), serverURL: "http://c.example/feed")
    try Subscriptions(store: store).remove(id: arrived.id)
    XCTAssertEqual(try changes(), ["remove http://c.example/feed"])
  }

  func testAPushTakesTheRowsItCoveredAndFollowsTheServersRewrites() throws {
    try link()
    let one = try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/one?utm=x", title: nil, keep: nil)
    let id = one.id
    let covered = try XCTUnwrap(try journal.changes().last).id
    try Subscriptions(store: store).add(
      name: "two", feedURL: "https://a.example/two", title: nil, keep: nil)

    let dropped = try journal.recordPushed(
      upTo: covered, added: [(id, "https://a.example/one?utm=x")],
      rewrites: [("https://a.example/one?utm=x", "https://a.example/one")])

    XCTAssertEqual(dropped, [])
    XCTAssertEqual(try changes(), ["add https://a.example/two"], "a later change waits")
    XCTAssertEqual(try Subscriptions(store: store).matching("one").feedURL, "https://a.example/one")
    XCTAssertEqual(try AccountState(store: store).serverURLs()[id], "https://a.example/one")
  }

  func testARewriteOntoAFeedFollowedAlreadyRemovesTheDuplicate() throws {
    try link()
    let one = try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/one?utm=x", title: nil, keep: nil)
    try Subscriptions(store: store).add(
      name: "two", feedURL: "https://a.example/one", title: nil, keep: nil)
    let covered = try XCTUnwrap(try journal.changes().last).id

    let dropped = try journal.recordPushed(
      upTo: covered, added: [], rewrites: [(one.feedURL, "https://a.example/one")])

    XCTAssertEqual(dropped.map(\.name), ["one"])
    XCTAssertEqual(try Subscriptions(store: store).all().map(\.name), ["two"])
    XCTAssertEqual(try changes(), [], "the server made the change: nothing to send back")
  }
}
