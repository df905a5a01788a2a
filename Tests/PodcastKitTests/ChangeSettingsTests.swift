import Foundation
import Model
import PodcastKit
import Selection
import Store
import XCTest

/// `set` without the command line: settings merged over the stored ones, unset, retention,
/// and what a first sync not yet made is left to take.
final class ChangeSettingsTests: XCTestCase {
  private var fixture: UseCaseFixture!

  override func setUpWithError() throws {
    fixture = try UseCaseFixture()
  }

  override func tearDown() {
    fixture = nil
  }

  private var change: ChangeSettings { ChangeSettings(paths: fixture.paths) }

  private func subscribe(settings: SubscriptionSettings = SubscriptionSettings()) async throws
    -> Subscription
  {
    try await SubscribeToFeed(paths: fixture.paths, network: fixture.network).run(
      feed: fixture.serveFeed(title: "Show", count: 3), name: "show", keep: 5,
      settings: settings
    ).subscription
  }

  private func queued() throws -> Int {
    try DownloadRows(store: fixture.store()).all(in: [.queued]).count
  }

  func testGivenSettingsAreMergedOverTheStoredOnes() async throws {
    var stored = SubscriptionSettings()
    stored.filter.match = "^Episode"
    stored.concurrency = 2
    let subscription = try await subscribe(settings: stored)
    var given = SubscriptionSettings()
    given.concurrency = 4
    given.tags = false

    let outcome = try change.run(name: "show", keep: 10, settings: given)

    var expected = stored
    expected.concurrency = 4
    expected.tags = false
    XCTAssertEqual(outcome.settings, expected, "what was not given stays as it was")
    XCTAssertEqual(outcome.subscription.keep, 10)
    let id = subscription.id
    XCTAssertEqual(try SavedSettings(store: fixture.store()).of(subscriptionId: id), expected)
    XCTAssertEqual(try Subscriptions(store: fixture.store()).all().first?.keep, 10)
  }

  func testUnsetRemovesSettingsAndKeep() async throws {
    var stored = SubscriptionSettings()
    stored.filter.match = "^Episode"
    stored.concurrency = 2
    _ = try await subscribe(settings: stored)

    let outcome = try change.run(name: "show", unset: ["match", "keep"])

    var expected = SubscriptionSettings()
    expected.concurrency = 2
    XCTAssertEqual(outcome.settings, expected)
    XCTAssertNil(outcome.subscription.keep)
    XCTAssertNil(try Subscriptions(store: fixture.store()).all().first?.keep)
  }

  func testAnUnknownSettingIsRefusedAndNothingChanges() async throws {
    _ = try await subscribe()
    XCTAssertThrowsError(try change.run(name: "show", keep: 1, unset: ["colour"])) { error in
      XCTAssertEqual(error as? FilterError, .unknownSetting("colour"))
    }
    XCTAssertEqual(try Subscriptions(store: fixture.store()).all().first?.keep, 5)
  }

  func testAChangedFilterBeforeTheFirstSyncForgetsWhatSubscribeQueued() async throws {
    _ = try await subscribe()
    XCTAssertEqual(try queued(), 1)
    var given = SubscriptionSettings()
    given.filter.match = "nothing matches this"

    _ = try change.run(name: "show", settings: given)

    XCTAssertEqual(try queued(), 0, "the first sync decides with the new filter")
    XCTAssertNil(try Subscriptions(store: fixture.store()).all().first?.etag)
  }

  func testAChangedFirstPolicyBeforeTheFirstSyncForgetsWhatSubscribeQueued() async throws {
    _ = try await subscribe()
    var given = SubscriptionSettings()
    given.first = try FirstSyncPolicy(parsing: "all")

    _ = try change.run(name: "show", settings: given)

    XCTAssertEqual(try queued(), 0)
  }

  func testOtherChangesKeepWhatSubscribeQueued() async throws {
    _ = try await subscribe()
    var given = SubscriptionSettings()
    given.concurrency = 3

    _ = try change.run(name: "show", keep: 2, settings: given)

    XCTAssertEqual(try queued(), 1)
    XCTAssertEqual(try Subscriptions(store: fixture.store()).all().first?.etag, "\"v1\"")
  }

  func testAfterTheFirstSyncAChangedFilterForgetsNothing() async throws {
    var subscription = try await subscribe()
    subscription.lastChecked = Date()
    try Subscriptions(store: fixture.store()).update(subscription)
    var given = SubscriptionSettings()
    given.filter.match = "nothing matches this"

    _ = try change.run(name: "show", settings: given)

    XCTAssertEqual(try queued(), 1)
  }

  func testWithoutALibraryThereIsNoSuchSubscriptionAndNoneIsCreated() throws {
    XCTAssertThrowsError(try change.run(name: "show", keep: 3)) { error in
      XCTAssertEqual(error as? LibraryError, .noSubscription("show", count: 0))
    }
    XCTAssertFalse(fixture.libraryExists)
  }
}
