import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// The journal of subscription changes and the outbox of episode actions the library owes its
/// sync account: written in the same transaction as what they record, by every path that
/// makes such a change, only while there is an account, and never for what came from the
/// server.
final class AccountJournalTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
  }

  private func link() throws {
    try store.addAccount(
      AccountRecord(
        server: "https://sync.example", user: "ada", password: "pw", device: "box",
        api: "gpodder"))
  }

  private func journal() throws -> [String] {
    try store.accountJournal().map { "\($0.kind.rawValue) \($0.serverURL ?? $0.feedURL)" }
  }

  func testWithoutAnAccountNothingIsJournaled() throws {
    try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/one", title: nil, keep: nil)
    XCTAssertEqual(try journal(), [])
    try link()
    XCTAssertEqual(try journal(), ["add https://a.example/one"], "linking sends the list")
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
      try journal(),
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
    XCTAssertEqual(try journal(), [])
    XCTAssertEqual(try store.accountFeeds(), [arrived.id: "http://c.example/feed"])
    XCTAssertEqual(try store.subscription(serverURL: "HTTP://C.example/feed/")?.name, "phone")

    let removed = try store.unsubscribeFromServer("http://c.example/feed")
    XCTAssertEqual(removed?.name, "phone")
    XCTAssertEqual(try Subscriptions(store: store).all(), [])
    XCTAssertEqual(try journal(), [])
    XCTAssertEqual(try store.unsubscribeFromServer("http://c.example/feed"), nil)
  }

  func testARemovalIsJournaledUnderTheURLTheServerKnows() throws {
    try link()
    let arrived = try Subscriptions(store: store).add(
      name: "phone", feedURL: "https://c.example/feed", title: nil, keep: nil,
      settings: SubscriptionSettings(), serverURL: "http://c.example/feed")
    try Subscriptions(store: store).remove(id: arrived.id)
    XCTAssertEqual(try journal(), ["remove http://c.example/feed"])
  }

  func testAPushTakesTheRowsItCoveredAndFollowsTheServersRewrites() throws {
    try link()
    let one = try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/one?utm=x", title: nil, keep: nil)
    let id = one.id
    let covered = try unwrapLast(try store.accountJournal()).id
    try Subscriptions(store: store).add(
      name: "two", feedURL: "https://a.example/two", title: nil, keep: nil)

    let dropped = try store.recordJournalPushed(
      upTo: covered, added: [(id, "https://a.example/one?utm=x")],
      rewrites: [("https://a.example/one?utm=x", "https://a.example/one")])

    XCTAssertEqual(dropped, [])
    XCTAssertEqual(try journal(), ["add https://a.example/two"], "a later change waits")
    XCTAssertEqual(try Subscriptions(store: store).matching("one").feedURL, "https://a.example/one")
    XCTAssertEqual(try store.accountFeeds()[id], "https://a.example/one")
  }

  func testAFinishedDownloadOwesADownloadActionOnlyWithAnAccount() throws {
    try store.seed(finished("https://cdn.example/1.mp3", key: "guid:ep-1"))
    XCTAssertEqual(try store.pendingActions(), [])
    try link()
    try store.seed(finished("https://cdn.example/2.mp3", key: "guid:ep-2"))
    try store.seed(finished("https://cdn.example/3.mp3?x=1", key: "url:cdn.example/3.mp3"))

    let owed = try store.pendingActions()
    XCTAssertEqual(owed.map(\.kind), [.download, .download])
    XCTAssertEqual(
      owed.map(\.episodeURL), ["https://cdn.example/2.mp3", "https://cdn.example/3.mp3?x=1"])
    XCTAssertEqual(owed.map(\.guid), ["ep-2", nil])
    XCTAssertEqual(owed.map(\.feedURL), ["https://a.example/feed", "https://a.example/feed"])

    try store.markActionsSent([owed[0].id])
    XCTAssertEqual(try store.pendingActions().map(\.sent), [true, false])
    try store.forgetActions(owed.map(\.id))
    XCTAssertEqual(try store.pendingActions(), [])
  }

  func testUnlinkingDropsWhatWasOwedAndKeepsThePlays() throws {
    try link()
    try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/one", title: nil, keep: nil)
    try store.recordMarkedPlays([
      (
        PlayState(key: "guid:x", played: true, playedAt: Date(), actedAt: Date()),
        "https://cdn.example/x.mp3", "x"
      )
    ])
    XCTAssertEqual(try store.accountBacklog().actions, 1)

    XCTAssertEqual(try store.removeAccount()?.user, "ada")

    XCTAssertNil(try store.account())
    XCTAssertEqual(try store.accountBacklog().changes, 0)
    XCTAssertEqual(try store.accountBacklog().actions, 0)
    XCTAssertEqual(try store.playStates()["guid:x"]?.played, true)
    try link()
    XCTAssertThrowsError(try link()) { error in
      XCTAssertEqual(
        error as? LibraryError, .accountExists(user: "ada", server: "https://sync.example"))
    }
  }

  func testARecordPrintedOrDumpedShowsNoPassword() throws {
    let record = AccountRecord(
      server: "https://ada:pw-in-url@sync.example", user: "ada", password: "s3cret",
      device: "box", api: "gpodder")
    var dumped = ""
    dump(record, to: &dumped)
    for text in ["\(record)", String(reflecting: record), dumped] {
      XCTAssertFalse(text.contains("s3cret"), text)
      XCTAssertFalse(text.contains("pw-in-url"), text)
    }
  }

  private func finished(_ url: String, key: String) -> DownloadRecord {
    DownloadRecord(
      url: url, podcastTitle: "Show", episodeTitle: "Episode", state: .done, bytes: 10,
      partialPath: "", file: library.paths.episodes + "/Show/" + UUID().uuidString + ".mp3",
      episodeKey: key, feedURL: "https://a.example/feed")
  }
}

private func unwrapLast<T>(_ items: [T], file: StaticString = #filePath, line: UInt = #line)
  throws -> T
{
  try XCTUnwrap(items.last, file: file, line: line)
}
