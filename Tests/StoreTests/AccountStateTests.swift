import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// The account's one row: linking, a new password, unlinking, the last error, and how far the
/// subscription exchange got.
final class AccountStateTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var account: AccountState!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
    account = AccountState(store: store)
  }

  private let record = AccountRecord(
    server: "https://sync.example", user: "ada", password: "pw", device: "box", api: "gpodder",
    addedAt: Date(timeIntervalSince1970: 1_800_000_000))

  func testALinkIsKeptAndASecondRefused() throws {
    XCTAssertNil(try account.record())
    try account.link(record)

    XCTAssertEqual(try account.record(), record)
    XCTAssertThrowsError(try account.link(record)) { error in
      XCTAssertEqual(
        error as? LibraryError, .accountExists(user: "ada", server: "https://sync.example"))
    }
  }

  func testANewPasswordKeepsWhatWaitsAndClearsTheLastError() throws {
    XCTAssertThrowsError(try account.replaceLogin(password: "new", api: "nextcloud")) { error in
      XCTAssertEqual(error as? LibraryError, .noAccount)
    }
    try account.link(record)
    try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/one", title: nil, keep: nil)
    try account.recordFailure("the server is down", at: Date(timeIntervalSince1970: 1_800_000_100))
    XCTAssertEqual(try account.record()?.lastError, "the server is down")

    try account.replaceLogin(password: "new", api: "nextcloud")

    let replaced = try XCTUnwrap(try account.record())
    XCTAssertEqual(replaced.password, "new")
    XCTAssertEqual(replaced.api, "nextcloud")
    XCTAssertNil(replaced.lastError)
    XCTAssertEqual(try account.backlog().changes, 1)
  }

  func testThePullsClockMovesAndClearsTheLastError() throws {
    try account.link(record)
    try account.recordFailure("down")
    let now = Date(timeIntervalSince1970: 1_800_000_200)

    try account.recordSubscriptionsPulled(timestamp: 1234, at: now)

    let pulled = try XCTUnwrap(try account.record())
    XCTAssertEqual(pulled.subscriptionsSince, 1234)
    XCTAssertEqual(pulled.subscriptionsExchanged, now)
    XCTAssertNil(pulled.lastError)
  }

  func testUnlinkingDropsWhatWasOwedAndKeepsThePlays() throws {
    try account.link(record)
    try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/one", title: nil, keep: nil,
      settings: SubscriptionSettings(), serverURL: "http://a.example/one")
    try PlayStates(store: store).recordMarked([
      (
        PlayState(key: "guid:x", played: true, playedAt: Date(), actedAt: Date()),
        "https://cdn.example/x.mp3", "x"
      )
    ])
    XCTAssertEqual(try account.backlog().actions, 1)

    XCTAssertEqual(try account.unlink()?.user, "ada")

    XCTAssertNil(try account.record())
    XCTAssertEqual(try account.backlog().changes, 0)
    XCTAssertEqual(try account.backlog().actions, 0)
    XCTAssertEqual(try account.serverURLs(), [:])
    XCTAssertEqual(try PlayStates(store: store).all()["guid:x"]?.played, true)
    XCTAssertNil(try account.unlink())
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
}
