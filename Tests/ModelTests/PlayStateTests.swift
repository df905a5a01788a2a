import Foundation
import Model
import XCTest

/// What a play means for an episode, and when two feed URLs name one feed.
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
