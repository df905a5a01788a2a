import Feeds
import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// `podcast mark`: a mark is kept by episode, forgets what `subscribe` queued for it, and
/// `--new` makes an episode never downloaded new again for the next sync.
final class EpisodeMarksTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var marks: EpisodeMarks!
  private let feed = "https://feeds.example/show"

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
    marks = EpisodeMarks(store: store)
  }

  private func episode(_ guid: String) -> Episode {
    Episode(
      guid: guid, title: "Episode \(guid)",
      enclosure: Enclosure(url: "https://cdn.example/\(guid).mp3", length: nil, type: nil))
  }

  func testAMarkForgetsTheDownloadQueuedForItThatNeverBegan() throws {
    let a = episode("a")
    let keys = try DownloadRows(store: store).queue([
      QueuedDownload(url: a.enclosure.url, feedURL: feed, identityKeys: ["guid:a"])
    ])
    try marks.mark([a], as: .skip, feedURL: feed)
    XCTAssertEqual(try marks.all(), [EpisodeMark.key(for: a): .skip])
    XCTAssertNil(try DownloadRows(store: store).find(key: keys[0]))
  }

  func testMarkingNewMakesAnEpisodeNeverDownloadedNewAgain() throws {
    var subscription = try Subscriptions(store: store).add(
      name: "show", feedURL: feed, title: nil, keep: nil)
    subscription.etag = "\"v1\""
    try Subscriptions(store: store).update(subscription)
    let id = subscription.id
    let (a, b) = (episode("a"), episode("b"))
    try EpisodeLog(store: store).record(
      subscriptionId: id,
      episodes: [a, b].map {
        SeenEpisode(
          guid: $0.guid, enclosureURL: $0.enclosure.url, title: $0.title ?? "", published: nil)
      })
    try EpisodeLog(store: store).markDownloaded(subscriptionId: id, key: "guid:b", file: "/e/b")
    try marks.mark([a, b], as: .skip, feedURL: feed)

    try marks.mark([a, b], as: nil, feedURL: feed, subscriptionId: id)
    XCTAssertEqual(try marks.all(), [:])
    XCTAssertEqual(
      try EpisodeLog(store: store).episodes(subscriptionId: id).map(\.key), ["guid:b"],
      "the downloaded one is still had")
    XCTAssertNil(
      try Subscriptions(store: store).matching("show").etag, "the next sync reads the feed")
  }
}
