import Basics
import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// Each subscription's own settings: every default until saved, saved whole, and, when they
/// change what a first sync takes, saved together with forgetting what `subscribe` chose.
final class SavedSettingsTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var saved: SavedSettings!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
    saved = SavedSettings(store: store)
  }

  func testSettingsAreTheDefaultsUntilSavedAndComeBackWhole() throws {
    let one = try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/1", title: nil, keep: nil)
    let two = try Subscriptions(store: store).add(
      name: "two", feedURL: "https://a.example/2", title: nil, keep: nil)
    XCTAssertEqual(try saved.of(subscriptionId: one.id), SubscriptionSettings())
    var settings = SubscriptionSettings()
    settings.nameTemplate = "{number} {title}.{ext}"
    settings.concurrency = 2
    settings.feed = true
    try saved.save(settings, subscriptionId: two.id)
    XCTAssertEqual(try saved.of(subscriptionId: two.id), settings)
    XCTAssertEqual(try saved.all(), [two.id: settings])
    XCTAssertThrowsError(try saved.save(settings, subscriptionId: two.id + 100)) {
      XCTAssertEqual($0 as? LibraryError, .unknownSubscription(id: two.id + 100))
    }
  }

  /// A subscription never synced forgets its first refresh with the change that alters it:
  /// its episodes, its downloads queued and not begun, its validators, in the same commit.
  func testAChangeToTheFirstSyncForgetsWhatSubscribeChose() throws {
    let url = "https://cdn.example/a.mp3"
    let refresh = FirstRefresh(
      validators: Validators(etag: "\"v1\""),
      episodes: [SeenEpisode(guid: "a", enclosureURL: url, title: "A", published: nil)],
      queued: [
        QueuedDownload(url: url, feedURL: "https://a.example/1", identityKeys: ["guid:a"])
      ])
    let one = try Subscriptions(store: store).add(
      name: "one", feedURL: "https://a.example/1", title: nil, keep: nil,
      settings: SubscriptionSettings(), firstRefresh: refresh)
    XCTAssertEqual(try DownloadRows(store: store).find(url: url)?.state, .queued)
    var settings = SubscriptionSettings()
    settings.first = .newest(3)
    try saved.save(settings, subscriptionId: one.id, forgettingFirstRefresh: true)
    XCTAssertEqual(try saved.of(subscriptionId: one.id), settings)
    XCTAssertEqual(try EpisodeLog(store: store).episodes(subscriptionId: one.id), [])
    XCTAssertNil(try DownloadRows(store: store).find(url: url))
    XCTAssertNil(try Subscriptions(store: store).matching("one").etag)
  }
}
