import AccountServer
import AccountServerTestSupport
import Exchange
import Foundation
import Model
import Store
import StoreTestSupport
import Synchronization
import Transfer
import XCTest

/// The exchange run against the tests' own gpodder.net-API server and a library in a
/// temporary folder: each half in its order, what it leaves in the library, and a failure
/// that stops it without losing what waits.
final class AccountExchangeTests: XCTestCase {
  private var gpodder: LoopbackGpodder!
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private let problems = Problems()

  override func setUpWithError() throws {
    gpodder = try LoopbackGpodder()
    library = try TemporaryLibrary()
    store = try library.store()
    try AccountState(store: store).link(
      AccountRecord(
        server: gpodder.url, user: LoopbackGpodder.user, password: LoopbackGpodder.password,
        device: "podcast-box", api: "gpodder"))
  }

  override func tearDownWithError() throws {
    gpodder.stop()
  }

  /// The exchange, subscribing what arrives under a name made of its URL's last part.
  private func exchange() throws -> AccountExchange {
    let store = self.store!
    let problems = self.problems
    return try XCTUnwrap(
      try AccountExchange(
        store: store, http: HTTPClient(options: TransferOptions(connectTimeout: 5)),
        subscribe: { url in
          let name = String(url.split(separator: "/").last ?? "feed")
          return try Subscriptions(store: store).add(
            name: name, feedURL: url, title: nil, keep: nil, settings: SubscriptionSettings(),
            serverURL: url
          ).name
        }, problem: { problems.add($0) }))
  }

  func testWithoutAnAccountThereIsNoExchange() throws {
    try AccountState(store: store).unlink()
    XCTAssertNil(
      try AccountExchange(
        store: store, http: .shared, subscribe: { _ in nil }, problem: { _ in }))
  }

  func testTheServersFeedsArriveAndTheLibrarysGo() async throws {
    // Stopped, so the second cannot turn between the server's answer and the comparison.
    gpodder.clock = Int64(Date().timeIntervalSince1970)
    try Subscriptions(store: store).add(
      name: "here", feedURL: "https://a.example/here.xml", title: nil, keep: nil)
    gpodder.phoneChanges(add: ["https://b.example/phone.xml"])

    let report = try await exchange().subscriptions()

    XCTAssertFalse(report.failed, "\(problems.all)")
    XCTAssertEqual(report.subscribed, ["phone.xml"])
    XCTAssertEqual(report.sentAdded, ["https://a.example/here.xml"])
    XCTAssertEqual(
      gpodder.subscriptions, ["https://a.example/here.xml", "https://b.example/phone.xml"])
    XCTAssertEqual(try AccountJournal(store: store).changes(), [], "the journal was taken")
    XCTAssertEqual(
      try AccountState(store: store).record()?.subscriptionsSince, gpodder.clock,
      "the next pull asks from the server's clock")

    gpodder.phoneChanges(remove: ["https://b.example/phone.xml"])
    let removed = try await exchange().subscriptions()
    XCTAssertEqual(removed.unsubscribed, ["phone.xml"])
    XCTAssertEqual(try Subscriptions(store: store).all().map(\.name), ["here"])
  }

  func testActionsGoOnceAndPlaysComeBack() async throws {
    let show = try Subscriptions(store: store).add(
      name: "show", feedURL: "https://a.example/show.xml", title: nil, keep: nil)
    try EpisodeLog(store: store).record(
      subscriptionId: show.id,
      episodes: [
        SeenEpisode(
          guid: "ep-1", enclosureURL: "https://cdn.example/1.mp3", title: "One", published: nil)
      ])
    try PlayStates(store: store).recordMarked([
      (
        PlayState(
          key: "guid:ep-1", feedURL: show.feedURL, position: 10, total: 100, played: true,
          playedAt: Date(), actedAt: Date()), "https://cdn.example/1.mp3", "ep-1"
      )
    ])
    gpodder.habits.storesThenFails = 1

    let lost = try await exchange().actions(continuing: nil)

    XCTAssertTrue(lost.failed)
    XCTAssertEqual(problems.all.count, 1)
    XCTAssertEqual(gpodder.actions.map(\.action), ["play"], "stored, the answer lost")
    XCTAssertEqual(try AccountOutbox(store: store).pending().map(\.sent), [true])
    XCTAssertNotNil(try AccountState(store: store).record()?.lastError)

    gpodder.phonePlays(
      podcast: show.feedURL, episode: "https://cdn.example/1.mp3", guid: "ep-1", position: 50,
      total: 100, at: gpodder.clock + 60)
    let next = try await exchange().actions(continuing: nil)

    XCTAssertFalse(next.failed, "\(problems.all)")
    XCTAssertEqual(next.actionsSent, 0)
    XCTAssertEqual(gpodder.actions.filter { $0.device == "podcast-box" }.count, 1, "not twice")
    XCTAssertEqual(try AccountOutbox(store: store).pending(), [])
    XCTAssertEqual(next.playsRecorded, 1)
    XCTAssertEqual(try PlayStates(store: store).all()["guid:ep-1"]?.position, 50)
    XCTAssertNil(try AccountState(store: store).record()?.lastError)
  }

  func testAFailedPullStopsTheExchangeAndTheJournalWaits() async throws {
    try Subscriptions(store: store).add(
      name: "here", feedURL: "https://a.example/here.xml", title: nil, keep: nil)
    gpodder.fail("subscriptions", status: 503, message: "maintenance")

    let exchange = try exchange()
    let report = await exchange.subscriptions()
    let actions = await exchange.actions(continuing: report)

    XCTAssertTrue(actions.failed)
    XCTAssertEqual(problems.all.count, 1, "the first error stops the rest")
    XCTAssertTrue(problems.all[0].contains("maintenance"), problems.all[0])
    XCTAssertEqual(try AccountJournal(store: store).changes().count, 1)
    XCTAssertEqual(gpodder.subscriptions, [])
  }

  func testAPreviewAsksTheServerAndChangesNothing() async throws {
    try Subscriptions(store: store).add(
      name: "here", feedURL: "https://a.example/here.xml", title: nil, keep: nil)
    gpodder.phoneChanges(add: ["https://b.example/phone.xml", "ftp://c.example/feed"])

    let preview = try await exchange().preview()

    XCTAssertEqual(preview.subscribed, ["https://b.example/phone.xml"])
    XCTAssertEqual(preview.sentAdded, ["https://a.example/here.xml"])
    XCTAssertEqual(preview.notApplied.count, 1)
    XCTAssertEqual(try Subscriptions(store: store).all().map(\.name), ["here"])
    XCTAssertEqual(try AccountJournal(store: store).changes().count, 1)
    XCTAssertNil(try AccountState(store: store).record()?.subscriptionsSince)
  }
}

/// The problems an exchange told, as sentences.
private final class Problems: Sendable {
  private let said = Mutex<[String]>([])

  func add(_ error: any Error) { said.withLock { $0.append(String(describing: error)) } }
  var all: [String] { said.withLock { $0 } }
}
