import AccountServer
import Exchange
import Foundation
import Model
import XCTest

/// The rules of sending the outbox: which actions go and under which URL, which are dropped,
/// and which of those an upload that lost its answer began are sent again.
final class ActionOutboxTests: XCTestCase {
  private let at = Date(timeIntervalSince1970: 1_800_000_000.75)
  private let show = Subscription(
    id: 1, name: "show", feedURL: "https://feeds.example/show.xml", title: nil, keep: nil)

  private func outbox(
    _ pending: [PendingAction], subscriptions: [Subscription]? = nil,
    settings: [Int64: SubscriptionSettings] = [:], serverURLs: [Int64: String] = [:]
  ) -> ActionOutbox {
    ActionOutbox(
      pending: pending, subscriptions: subscriptions ?? [show], settings: settings,
      serverURLs: serverURLs, device: "podcast-box")
  }

  private func download(
    _ id: Int64, _ episode: String, guid: String? = nil, feed: String? = nil, sent: Bool = false
  ) -> PendingAction {
    PendingAction(
      id: id, kind: .download, feedURL: feed ?? show.feedURL, episodeURL: episode, guid: guid,
      at: at, sent: sent)
  }

  func testEachActionGoesUnderTheURLTheServerKnowsInWholeSecondsFromThisDevice() {
    let sent = outbox(
      [download(1, "https://cdn.example/1.mp3", guid: "ep-1")],
      serverURLs: [1: "http://feeds.example/show.xml"]
    ).send

    XCTAssertEqual(sent.count, 1)
    let action = sent[0].action
    XCTAssertEqual(action.podcast, "http://feeds.example/show.xml")
    XCTAssertEqual(action.episode, "https://cdn.example/1.mp3")
    XCTAssertEqual(action.guid, "ep-1")
    XCTAssertEqual(action.kind, .download)
    XCTAssertEqual(action.timestamp, Date(timeIntervalSince1970: 1_800_000_000))
    XCTAssertEqual(action.device, "podcast-box")
  }

  func testAPlayAndADeleteAreSentAsTheirKinds() {
    let played = PendingAction(
      id: 1, kind: .play, feedURL: show.feedURL, episodeURL: "https://cdn.example/1.mp3",
      at: at, position: 3_000, total: 3_600)
    let deleted = PendingAction(
      id: 2, kind: .delete, feedURL: show.feedURL, episodeURL: "https://cdn.example/2.mp3", at: at)

    let actions = outbox([played, deleted]).send.map(\.action)

    XCTAssertEqual(actions.map(\.kind), [.play, .delete])
    XCTAssertEqual(actions[0].position, 3_000)
    XCTAssertEqual(actions[0].total, 3_600)
    XCTAssertNil(actions[1].position)
  }

  func testActionsOfFeedsNotFollowedOrPrivateOrNoFeedsAreDropped() {
    let members = Subscription(
      id: 2, name: "members", feedURL: "https://m.example/feed.xml?token=abc", title: nil,
      keep: nil)
    let pending = [
      download(1, "https://cdn.example/1.mp3"),
      download(2, "https://cdn.example/2.mp3", feed: "https://gone.example/feed.xml"),
      download(3, "https://cdn.example/3.mp3", feed: members.feedURL),
      download(4, "file:///etc/passwd"),
      PendingAction(
        id: 5, kind: .download, feedURL: nil, episodeURL: "https://x.example/5.mp3", at: at),
    ]

    let box = outbox(pending, subscriptions: [show, members])

    XCTAssertEqual(box.send.map(\.pending.id), [1])
    XCTAssertEqual(box.drop, [2, 3, 4, 5])
    var shared = SubscriptionSettings()
    shared.shareWithAccount = true
    XCTAssertEqual(
      outbox(pending, subscriptions: [show, members], settings: [2: shared]).send.map(\.pending.id),
      [1, 3])
  }

  func testOnlyActionsSentBeforeAreLookedForFromASecondBeforeTheEarliest() {
    XCTAssertNil(outbox([download(1, "https://cdn.example/1.mp3")]).recheckSince)
    let box = outbox([
      download(1, "https://cdn.example/1.mp3"),
      download(2, "https://cdn.example/2.mp3", sent: true),
    ])
    XCTAssertEqual(box.recheckSince, 1_800_000_000 - 1)
  }

  func testAnActionTheServerStoredUnderAnotherFormOfItsURLIsNotSentAgain() {
    let episode = "https://cdn.example/get?file=a%2Fb.mp3&name=one+two"
    let box = outbox([
      download(1, episode, sent: true),
      download(2, "https://cdn.example/other.mp3", sent: true),
      download(3, "https://cdn.example/new.mp3"),
    ])
    let stored = EpisodeAction(
      podcast: show.feedURL, episode: "https://cdn.example/get?file=a%252Fb.mp3&name=one%2Btwo",
      kind: .download, timestamp: Date(timeIntervalSince1970: 1_800_000_000), device: "podcast-box")

    let delivered = box.delivered(among: [stored])

    XCTAssertEqual(delivered, [1])
    XCTAssertEqual(box.batches(leavingOut: delivered).flatMap { $0 }.map(\.pending.id), [2, 3])
  }

  func testTheGUIDDecidesWhenBothHaveOne() {
    let box = outbox([
      download(1, "https://cdn.example/1.mp3", guid: "ep-1", sent: true),
      download(2, "https://cdn.example/2.mp3", guid: "ep-2", sent: true),
    ])
    let time = Date(timeIntervalSince1970: 1_800_000_000)
    let there = [
      // The same episode under a link the server rewrote.
      EpisodeAction(
        podcast: show.feedURL, episode: "https://tracker.example/1.mp3", guid: "ep-1",
        kind: .download, timestamp: time),
      // Another episode at the second's URL.
      EpisodeAction(
        podcast: show.feedURL, episode: "https://cdn.example/2.mp3", guid: "ep-9",
        kind: .download, timestamp: time),
    ]

    XCTAssertEqual(box.delivered(among: there), [1])
  }

  func testAnotherKindOrSecondOrFeedIsAnotherAction() {
    let box = outbox([download(1, "https://cdn.example/1.mp3", sent: true)])
    let time = Date(timeIntervalSince1970: 1_800_000_000)
    let episode = "https://cdn.example/1.mp3"
    let there = [
      EpisodeAction(podcast: show.feedURL, episode: episode, kind: .play, timestamp: time),
      EpisodeAction(
        podcast: show.feedURL, episode: episode, kind: .download, timestamp: time + 1),
      EpisodeAction(
        podcast: "https://other.example/feed.xml", episode: episode, kind: .download,
        timestamp: time),
    ]

    XCTAssertEqual(box.delivered(among: there), [])
  }

  func testUploadsGoInBatches() {
    let pending = (1...1_201).map { download(Int64($0), "https://cdn.example/\($0).mp3") }

    XCTAssertEqual(
      outbox(pending).batches().map(\.count),
      [ActionOutbox.uploadSize, ActionOutbox.uploadSize, 1_201 - 2 * ActionOutbox.uploadSize])
  }
}
