import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// How the library matches another device's report of a play to one of its episodes.
final class PlayReportMatchingTests: XCTestCase {
  private let start = Date(timeIntervalSince1970: 1_800_000_000)

  func testAReportIsMatchedByGUIDElseByTheEnclosuresIdentity() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    try store.addAccount(
      AccountRecord(server: "s", user: "u", password: "p", device: "d", api: "gpodder"))
    let show = try Subscriptions(store: store).add(
      name: "show", feedURL: "https://feeds.example/show.xml", title: nil, keep: nil,
      settings: SubscriptionSettings(), serverURL: "http://feeds.example/show.xml")
    let id = show.id
    try EpisodeLog(store: store).record(
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
}
