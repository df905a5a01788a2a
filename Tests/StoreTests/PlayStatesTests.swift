import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// How far each episode was played: marks made here (and the actions they owe the server),
/// and states decided from the server's reports inside the transaction that records them.
final class PlayStatesTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var states: PlayStates!
  private let now = Date(timeIntervalSince1970: 1_800_000_000)

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
    states = PlayStates(store: store)
  }

  private func link() throws {
    try AccountState(store: store).link(
      AccountRecord(server: "s", user: "u", password: "p", device: "d", api: "gpodder"))
  }

  func testAMarkIsKeptAndOwesItsActionOnlyWithAnAccount() throws {
    let played = PlayState(
      key: "guid:a", feedURL: "https://a.example/feed", position: 3_600, total: 3_600,
      played: true, playedAt: now, actedAt: now)
    try states.recordMarked([(played, "https://cdn.example/a.mp3", "a")])
    XCTAssertEqual(try states.all(), ["guid:a": played])
    XCTAssertEqual(try AccountOutbox(store: store).pending(), [])

    try link()
    let unplayed = PlayState(
      key: "guid:a", feedURL: "https://a.example/feed", total: 3_600, actedAt: now + 1)
    try states.recordMarked([
      (played, "https://cdn.example/a.mp3", "a"), (unplayed, "https://cdn.example/a.mp3", "a"),
    ])

    let owed = try AccountOutbox(store: store).pending()
    XCTAssertEqual(owed.map(\.kind), [.play, .new])
    XCTAssertEqual(owed.map(\.position), [3_600, nil])
    XCTAssertEqual(owed.map(\.guid), ["a", "a"])
    XCTAssertEqual(try states.all()["guid:a"], unplayed)
  }

  func testADecisionSeesTheLibraryAndIsSavedWithTheActionClock() throws {
    try link()
    let show = try Subscriptions(store: store).add(
      name: "show", feedURL: "https://feeds.example/show.xml", title: nil, keep: nil,
      settings: SubscriptionSettings(), serverURL: "http://feeds.example/show.xml")
    try EpisodeLog(store: store).record(
      subscriptionId: show.id,
      episodes: [
        SeenEpisode(
          guid: "ep-1", enclosureURL: "https://cdn.example/1.mp3", title: "One", published: nil)
      ])
    let earlier = PlayState(key: "guid:ep-1", position: 5, actedAt: now - 10)
    try states.recordMarked([(earlier, "https://cdn.example/1.mp3", "ep-1")])

    let saved = try states.record(actionsSince: 77, at: now) { lookup in
      XCTAssertEqual(try lookup.states()["guid:ep-1"], earlier)
      XCTAssertEqual(
        try lookup.subscription(serverURL: "http://feeds.example/show.xml")?.id, show.id)
      XCTAssertEqual(
        try lookup.episodeKeys(subscriptionId: show.id)["url:cdn.example/1.mp3"], "guid:ep-1")
      return [PlayState(key: "guid:ep-1", position: 60, actedAt: now)]
    }

    XCTAssertEqual(saved.map(\.position), [60])
    XCTAssertEqual(try states.all()["guid:ep-1"]?.position, 60)
    let account = try XCTUnwrap(try AccountState(store: store).record())
    XCTAssertEqual(account.actionsSince, 77)
    XCTAssertEqual(account.actionsExchanged, now)
  }

  func testAFailedDecisionSavesNothingAndMovesNoClock() throws {
    try link()
    struct Refused: Error {}

    XCTAssertThrowsError(
      try states.record(actionsSince: 77, at: now) { _ in
        throw Refused()
      })

    XCTAssertEqual(try states.all(), [:])
    XCTAssertNil(try AccountState(store: store).record()?.actionsSince)
  }

  func testAPreviewWritesNothing() throws {
    let previewed = try states.preview { _ in [PlayState(key: "guid:z", actedAt: now)] }
    XCTAssertEqual(previewed.map(\.key), ["guid:z"])
    XCTAssertEqual(try states.all(), [:])
  }
}
