import Foundation
import XCTest

@testable import Model
@testable import Store

/// What a play means for an episode, and how the library matches another device's report to
/// one of its episodes.
final class PlayStateTests: XCTestCase {
  private let start = Date(timeIntervalSince1970: 1_800_000_000)

  func testAnEpisodeIsHeardWithinItsLastMinuteOrItsLastTwoPercent() {
    XCTAssertTrue(PlayState.reachesEnd(position: 1_800, total: 1_800))
    XCTAssertTrue(PlayState.reachesEnd(position: 1_740, total: 1_800), "the last minute")
    XCTAssertFalse(PlayState.reachesEnd(position: 1_739, total: 1_800))
    XCTAssertTrue(PlayState.reachesEnd(position: 35_280, total: 36_000), "2% of ten hours")
    XCTAssertFalse(PlayState.reachesEnd(position: 35_279, total: 36_000))
    XCTAssertFalse(PlayState.reachesEnd(position: 60, total: nil), "no length, no verdict")
    XCTAssertFalse(PlayState.reachesEnd(position: 0, total: 0))
  }

  func testOnlyALaterActionChangesTheStateAndPlayedStaysUntilMarkedNew() throws {
    let heard = try XCTUnwrap(
      PlayState.after(
        play: 3_600, total: 3_600, at: start, key: "k", feedURL: nil, over: nil))
    XCTAssertEqual([heard.played, heard.playedAt == start], [true, true])
    XCTAssertNil(
      PlayState.after(play: 10, total: 3_600, at: start, key: "k", feedURL: nil, over: heard),
      "the same action seen again")
    let again = try XCTUnwrap(
      PlayState.after(
        play: 10, total: nil, at: start + 60, key: "k", feedURL: nil, over: heard))
    XCTAssertEqual(again.position, 10)
    XCTAssertEqual(again.total, 3_600, "the length known before stays")
    XCTAssertTrue(again.played, "listening to a part again is not un-hearing it")
    XCTAssertEqual(again.playedAt, start)
    let fresh = try XCTUnwrap(
      PlayState.after(markedNewAt: start + 120, key: "k", feedURL: nil, over: again))
    XCTAssertFalse(fresh.played)
    XCTAssertNil(fresh.playedAt)
  }

  func testAReportIsMatchedByGUIDElseByTheEnclosuresIdentity() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    try store.addAccount(
      AccountRecord(server: "s", user: "u", password: "p", device: "d", api: "gpodder"))
    let show = try store.addSubscription(
      name: "show", feedURL: "https://feeds.example/show.xml", title: nil, keep: nil,
      settings: SubscriptionSettings(), serverURL: "http://feeds.example/show.xml")
    let id = try XCTUnwrap(show.id)
    try store.recordSeen(
      subscriptionId: id,
      episodes: [
        SeenEpisode(
          guid: "ep-1", enclosureURL: "https://cdn.example/1.mp3", title: "One", published: nil),
        SeenEpisode(
          guid: "ep-2", enclosureURL: "https://cdn.example/2.mp3?token=a", title: "Two",
          published: nil),
      ])

    let changed = try store.recordPlays(
      [
        // By GUID, from the feed as the server knows it.
        PlayReport(
          podcast: "http://feeds.example/show.xml", episode: "https://elsewhere.example/x.mp3",
          guid: "ep-1", kind: .play(position: 3_600, total: 3_600), at: start),
        // No GUID (mygpoclient sends none): a tracking prefix and another query string.
        PlayReport(
          podcast: "https://feeds.example/show.xml",
          episode: "https://dts.podtrac.com/redirect.mp3/cdn.example/2.mp3?token=b", guid: nil,
          kind: .play(position: 60, total: 3_600), at: start),
        // A feed this library does not follow.
        PlayReport(
          podcast: "https://other.example/feed", episode: "https://cdn.example/1.mp3", guid: nil,
          kind: .play(position: 1, total: 2), at: start),
      ], actionsSince: 42, at: start)

    XCTAssertEqual(changed.count, 2)
    let states = try store.playStates()
    XCTAssertEqual(states["guid:ep-1"]?.played, true)
    XCTAssertEqual(states["guid:ep-2"]?.position, 60)
    XCTAssertEqual(states["guid:ep-2"]?.played, false)
    XCTAssertEqual(try store.account()?.actionsSince, 42)
    XCTAssertEqual(
      try store.recordPlays(
        [
          PlayReport(
            podcast: "http://feeds.example/show.xml", episode: "https://cdn.example/1.mp3",
            guid: "ep-1", kind: .play(position: 3_600, total: 3_600), at: start)
        ], actionsSince: 43, at: start), [], "seen again: nothing changes")
  }

  func testFeedIdentityIgnoresWhatDoesNotNameAnotherFeed() {
    XCTAssertEqual(
      FeedIdentity.key("HTTP://User:pw@Feeds.Example.org:80/show/?a=1#x"),
      "feeds.example.org/show?a=1")
    XCTAssertEqual(
      FeedIdentity.key("https://feeds.example.org/show"),
      FeedIdentity.key("http://feeds.example.org/show/"))
    XCTAssertNotEqual(
      FeedIdentity.key("https://feeds.example.org/show?format=mp3"),
      FeedIdentity.key("https://feeds.example.org/show?format=aac"))
    XCTAssertNotEqual(
      FeedIdentity.key("https://feeds.example.org:8443/show"),
      FeedIdentity.key("https://feeds.example.org/show"))
  }
}
