import Feeds
import Foundation
import Model
import PodcastKit
import Selection
import Store
import XCTest

/// `mark` without the command line: the marks stored by episode, and what they change for the
/// subscription FEED turns out to be.
final class MarkEpisodesTests: XCTestCase {
  private var fixture: UseCaseFixture!
  private var feed: String!

  override func setUpWithError() throws {
    fixture = try UseCaseFixture()
    feed = fixture.serveFeed(title: "Show", count: 5)
  }

  override func tearDown() {
    fixture = nil
  }

  private var mark: MarkEpisodes {
    MarkEpisodes(paths: fixture.paths, network: fixture.network)
  }

  /// The stored mark of episode `number` (index 6 - number: the newest is 1).
  private func storedMark(_ number: Int) throws -> EpisodeMark.State? {
    let listing = try EpisodeMarks(store: fixture.store()).all()
    let episode = try FeedParser.parse(
      Data(fixture.rss("/feed.xml", title: "Show", count: 5).utf8), baseURL: nil
    ).episodes[5 - number]
    return listing[EpisodeMark.key(for: episode)]
  }

  private func subscribe() async throws -> Subscription {
    try await SubscribeToFeed(paths: fixture.paths, network: fixture.network)
      .run(feed: feed, name: "show").subscription
  }

  func testMarksTheChosenIndexesOfAFeedWithoutASubscription() async throws {
    let outcome = try await mark.run(
      feed: feed, selection: try EpisodeSelection(parsing: ["1", "3-4"]), as: .skip)

    XCTAssertEqual(outcome.marked, 3)
    XCTAssertNil(outcome.subscription)
    XCTAssertEqual(try storedMark(5), .skip)
    XCTAssertEqual(try storedMark(4), nil)
    XCTAssertEqual(try storedMark(3), .skip)
    XCTAssertEqual(try storedMark(2), .skip)
  }

  func testSkippingTheEpisodeSubscribeQueuedTakesItOffTheFirstSyncsQueue() async throws {
    let subscription = try await subscribe()
    XCTAssertEqual(try DownloadRows(store: fixture.store()).all(in: [.queued]).count, 1)

    let outcome = try await mark.run(
      feed: "show", selection: try EpisodeSelection(parsing: ["1"]), as: .skip)

    XCTAssertEqual(outcome.subscription?.id, subscription.id, "FEED named the subscription")
    XCTAssertEqual(try storedMark(5), .skip)
    XCTAssertEqual(try DownloadRows(store: fixture.store()).all(in: [.queued]), [])
  }

  func testTheSubscriptionIsFoundByItsFeedURLToo() async throws {
    let subscription = try await subscribe()
    let outcome = try await mark.run(
      feed: feed, selection: try EpisodeSelection(parsing: ["2"]), as: .downloaded)
    XCTAssertEqual(outcome.subscription?.id, subscription.id)
    XCTAssertEqual(try storedMark(4), .downloaded)
  }

  func testNewRemovesTheMarkAndMakesTheSubscriptionForgetItSawTheEpisode() async throws {
    let subscription = try await subscribe()
    let id = subscription.id
    let selection = try EpisodeSelection(parsing: ["2"])
    _ = try await mark.run(feed: "show", selection: selection, as: .skip)
    XCTAssertEqual(try EpisodeLog(store: fixture.store()).episodes(subscriptionId: id).count, 5)

    _ = try await mark.run(feed: "show", selection: selection, as: .new)

    XCTAssertNil(try storedMark(4))
    XCTAssertEqual(
      try EpisodeLog(store: fixture.store()).episodes(subscriptionId: id).count, 4,
      "forgotten, so the next sync takes it as new")
    XCTAssertNil(
      try Subscriptions(store: fixture.store()).all().first?.etag,
      "and without validators, so that sync reads the feed instead of getting a 304")
  }

  func testAnIndexTheFeedDoesNotHaveMarksNothing() async throws {
    do {
      _ = try await mark.run(
        feed: feed, selection: try EpisodeSelection(parsing: ["1", "9"]), as: .skip)
      XCTFail("episode 9 of 5 was marked")
    } catch let error as SelectionError {
      XCTAssertEqual(error, .outOfRange(9, count: 5))
    }
    XCTAssertFalse(fixture.libraryExists)
  }
}
