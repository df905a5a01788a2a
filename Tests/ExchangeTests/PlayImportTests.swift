import AccountServer
import Exchange
import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// The rules of taking in other devices' plays: which actions are plays, what an action
/// without a time or a position becomes, which episode a play is of, and which change wins.
final class PlayImportTests: XCTestCase {
  private let start = Date(timeIntervalSince1970: 1_800_000_000)
  private let show = Subscription(
    id: 1, name: "show", feedURL: "https://feeds.example/show.xml", title: nil, keep: nil)

  private func play(
    _ episode: String, guid: String? = nil, position: Int?, at time: Date?,
    podcast: String = "https://feeds.example/show.xml"
  ) -> EpisodeAction {
    EpisodeAction(
      podcast: podcast, episode: episode, guid: guid, kind: .play, timestamp: time,
      position: position, total: 3_600)
  }

  func testPlaysAndMarksAsNewAreTakenAndDownloadsLeftAlone() {
    let actions = EpisodeActions(
      actions: [
        play("https://cdn.example/1.mp3", position: 60, at: start),
        EpisodeAction(
          podcast: show.feedURL, episode: "https://cdn.example/2.mp3", kind: .new,
          timestamp: start),
        EpisodeAction(
          podcast: show.feedURL, episode: "https://cdn.example/3.mp3", kind: .download,
          timestamp: start),
      ], timestamp: 1)

    let taken = PlayImport.reports(actions, untimed: start)

    XCTAssertEqual(taken.reports.map(\.kind), [.play(position: 60, total: 3_600), .markedNew])
    XCTAssertEqual(taken.notApplied, [])
  }

  func testAPlayWithoutATimeIsTakenAtTheTimeGivenAndWhatCannotBeTakenIsNamed() {
    let actions = EpisodeActions(
      actions: [
        play("https://cdn.example/1.mp3", position: 60, at: nil),
        play("https://cdn.example/2.mp3", position: nil, at: start),
      ], timestamp: 1, ignored: 2)

    let taken = PlayImport.reports(actions, untimed: start + 5)

    XCTAssertEqual(taken.reports.map(\.at), [start + 5])
    XCTAssertEqual(taken.notApplied.count, 2, "\(taken.notApplied)")
    XCTAssertTrue(taken.notApplied.contains { $0.hasPrefix("2 episode actions") })
    XCTAssertTrue(taken.notApplied.contains { $0.contains("https://cdn.example/2.mp3") })
  }

  func testAnUntimedPlayCountsFromTheLastPullSoALaterMarkHereWins() {
    XCTAssertEqual(PlayImport.untimed(actionsSince: nil, now: start), start)
    XCTAssertEqual(
      PlayImport.untimed(actionsSince: 1_700_000_000, now: start),
      Date(timeIntervalSince1970: 1_700_000_000))
    let marked = PlayState(key: "guid:ep-1", played: false, actedAt: start - 60)
    let report = PlayReport(
      podcast: show.feedURL, episode: "https://cdn.example/1.mp3", guid: "ep-1",
      kind: .play(position: 3_600, total: 3_600),
      at: PlayImport.untimed(actionsSince: Int64(start.timeIntervalSince1970) - 3_600, now: start))

    XCTAssertEqual(
      PlayImport.changes(
        [report], over: ["guid:ep-1": marked], subscription: { _ in self.show },
        episodeKeys: { _ in [:] }), [])
  }

  func testPlaysArePulledAgainOverAWindow() {
    XCTAssertEqual(PlayImport.since(nil), 0)
    XCTAssertEqual(PlayImport.since(100), 0)
    XCTAssertEqual(
      PlayImport.since(1_800_000_000), 1_800_000_000 - PlayImport.replayWindow)
  }

  func testAPlayIsMatchedByGUIDElseByTheEnclosuresIdentityAndOnlyInFeedsFollowed() {
    let keys = [
      "guid:ep-1": "guid:ep-1", "url:cdn.example/1.mp3": "guid:ep-1",
      "guid:ep-2": "guid:ep-2", "url:cdn.example/2.mp3": "guid:ep-2",
    ]
    let reports = [
      PlayReport(
        podcast: "http://feeds.example/show.xml", episode: "https://elsewhere.example/x.mp3",
        guid: "ep-1", kind: .play(position: 3_600, total: 3_600), at: start),
      PlayReport(
        podcast: show.feedURL,
        episode: "https://dts.podtrac.com/redirect.mp3/cdn.example/2.mp3?token=b", guid: nil,
        kind: .play(position: 60, total: 3_600), at: start),
      PlayReport(
        podcast: "https://other.example/feed", episode: "https://cdn.example/1.mp3", guid: nil,
        kind: .play(position: 1, total: 2), at: start),
    ]

    let changed = PlayImport.changes(
      reports, over: [:],
      subscription: { $0.contains("feeds.example") ? self.show : nil },
      episodeKeys: { _ in keys })

    XCTAssertEqual(changed.map(\.key), ["guid:ep-1", "guid:ep-2"])
    XCTAssertEqual(changed.map(\.played), [true, false])
    XCTAssertEqual(changed.map(\.position), [3_600, 60])
    XCTAssertEqual(changed.map(\.feedURL), [show.feedURL, show.feedURL])
  }

  func testTheLaterActionWinsWhateverOrderTheyCameIn() {
    let episode = "https://cdn.example/1.mp3"
    let reports = [
      PlayReport(
        podcast: show.feedURL, episode: episode, guid: "ep-1", kind: .markedNew, at: start + 10),
      PlayReport(
        podcast: show.feedURL, episode: episode, guid: "ep-1",
        kind: .play(position: 3_600, total: 3_600), at: start),
    ]
    let changed = PlayImport.changes(
      reports, over: [:], subscription: { _ in self.show }, episodeKeys: { _ in [:] })

    XCTAssertEqual(changed.count, 1)
    XCTAssertEqual(changed.first?.played, false, "marked new after it was played")
    XCTAssertEqual(changed.first?.actedAt, start + 10)

    let seenAgain = PlayImport.changes(
      reports, over: ["guid:ep-1": changed[0]], subscription: { _ in self.show },
      episodeKeys: { _ in [:] })
    XCTAssertEqual(seenAgain, [], "seen again: nothing changes")
  }

  func testThePlaysAreRecordedWithTheActionClockInOneTransaction() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    try AccountState(store: store).link(
      AccountRecord(server: "s", user: "u", password: "p", device: "d", api: "gpodder"))
    let subscribed = try Subscriptions(store: store).add(
      name: "show", feedURL: show.feedURL, title: nil, keep: nil,
      settings: SubscriptionSettings(), serverURL: "http://feeds.example/show.xml")
    try EpisodeLog(store: store).record(
      subscriptionId: subscribed.id,
      episodes: [
        SeenEpisode(
          guid: "ep-1", enclosureURL: "https://cdn.example/1.mp3", title: "One", published: nil)
      ])
    let report = PlayReport(
      podcast: "http://feeds.example/show.xml", episode: "https://cdn.example/1.mp3", guid: nil,
      kind: .play(position: 3_600, total: 3_600), at: start)
    let states = PlayStates(store: store)

    XCTAssertEqual(
      try states.preview { try PlayImport.changes([report], in: $0) }.map(\.key), ["guid:ep-1"])
    XCTAssertEqual(try states.all(), [:], "a preview writes nothing")
    let recorded = try states.record(actionsSince: 42, at: start) {
      try PlayImport.changes([report], in: $0)
    }

    XCTAssertEqual(recorded.map(\.key), ["guid:ep-1"])
    XCTAssertEqual(try states.all()["guid:ep-1"]?.played, true)
    XCTAssertEqual(try AccountState(store: store).record()?.actionsSince, 42)
  }
}
