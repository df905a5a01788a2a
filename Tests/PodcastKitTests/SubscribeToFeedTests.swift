import Downloads
import Foundation
import LoopbackServer
import Model
import PodcastKit
import Privacy
import Store
import XCTest

/// `subscribe` without the command line: the name chosen, where the feed is read from after
/// redirects, and what the first sync is left to download.
final class SubscribeToFeedTests: XCTestCase {
  private var fixture: UseCaseFixture!

  override func setUpWithError() throws {
    fixture = try UseCaseFixture()
  }

  override func tearDown() {
    fixture = nil
  }

  private var subscribe: SubscribeToFeed {
    SubscribeToFeed(paths: fixture.paths, network: fixture.network)
  }

  private func queuedURLs() throws -> [String] {
    try DownloadRows(store: fixture.store()).all(in: [.queued]).map(\.url).sorted()
  }

  func testNamesItAfterTheFeedsTitleAndQueuesTheNewestEpisodeForTheFirstSync() async throws {
    let feed = fixture.serveFeed(title: "The Daily Show!", count: 3)

    let outcome = try await subscribe.run(feed: feed)

    XCTAssertEqual(outcome.subscription.name, "the-daily-show")
    XCTAssertEqual(outcome.subscription.feedURL, feed)
    XCTAssertEqual(outcome.subscription.title, "The Daily Show!")
    XCTAssertEqual(outcome.number, 1)
    XCTAssertEqual(outcome.episodeCount, 3, "every episode is recorded as seen")
    XCTAssertEqual(outcome.queuedForFirstSync, 1)
    XCTAssertEqual(try queuedURLs(), [fixture.enclosure("/feed.xml", 3)])
    XCTAssertEqual(
      try Subscriptions(store: fixture.store()).all().first?.etag, "\"v1\"",
      "the first sync asks with the validators of this fetch")
  }

  func testASecondShowOfTheSameTitleGetsTheNextFreeNameAndNumber() async throws {
    let first = fixture.serveFeed(at: "/one.xml", title: "Show", count: 1)
    let second = fixture.serveFeed(at: "/two.xml", title: "Show", count: 1)

    _ = try await subscribe.run(feed: first)
    let outcome = try await subscribe.run(feed: second)

    XCTAssertEqual(outcome.subscription.name, "show-2")
    XCTAssertEqual(outcome.number, 2)
  }

  func testTheGivenNameSettingsAndRetentionAreStored() async throws {
    let feed = fixture.serveFeed(title: "Show", count: 4)
    var settings = SubscriptionSettings()
    settings.first = try FirstSyncPolicy(parsing: "all")
    settings.concurrency = 3

    let outcome = try await subscribe.run(feed: feed, name: "mine", keep: 2, settings: settings)

    XCTAssertEqual(outcome.subscription.name, "mine")
    XCTAssertEqual(outcome.subscription.keep, 2)
    XCTAssertEqual(outcome.settings, settings)
    XCTAssertEqual(outcome.queuedForFirstSync, 4, "--first all queues every episode")
    XCTAssertEqual(try queuedURLs().count, 4)
    let id = outcome.subscription.id
    XCTAssertEqual(try SavedSettings(store: fixture.store()).of(subscriptionId: id), settings)
  }

  func testAFirstPolicyOfNoneQueuesNothing() async throws {
    let feed = fixture.serveFeed(count: 3)
    var settings = SubscriptionSettings()
    settings.first = try FirstSyncPolicy(parsing: "none")

    let outcome = try await subscribe.run(feed: feed, settings: settings)

    XCTAssertEqual(outcome.queuedForFirstSync, 0)
    XCTAssertEqual(try queuedURLs(), [])
  }

  func testWhatIsQueuedIsNamedByTheTemplateASyncWouldUse() async throws {
    let feed = fixture.serveFeed(title: "Show", count: 3)

    _ = try await subscribe.run(feed: feed, firstSyncNameTemplate: "{index} {title}.{ext}")

    let queued = try XCTUnwrap(DownloadRows(store: fixture.store()).all(in: [.queued]).first)
    let details = try JSONDecoder().decode(
      DownloadDetails.self, from: Data(try XCTUnwrap(queued.details).utf8))
    XCTAssertEqual((details.relativePath as NSString).lastPathComponent, "1 Episode 3.mp3")
  }

  func testAFeedFileIsFollowedAtItsNormalizedPath() async throws {
    let path = try fixture.file("show.xml", fixture.rss("/file", title: "On Disk", count: 1))
    let folder = fixture.library.directory.appendingPathComponent("folder")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // What cron reads years later must not depend on how the path was typed.
    let roundabout = folder.path + "/../show.xml"

    let outcome = try await subscribe.run(feed: roundabout)

    XCTAssertEqual(
      outcome.subscription.feedURL, URL(fileURLWithPath: path).standardizedFileURL.path)
    XCTAssertEqual(outcome.subscription.name, "on-disk")
  }

  func testCredentialsGoBackOnTheURLAfterARedirectOnTheSameHost() async throws {
    let rss = fixture.rss("/paid.xml", title: "Paid", count: 1)
    fixture.server.set(
      "/paid.xml",
      Route.text(rss, contentType: "application/rss+xml")
        .requiringBasicAuth(user: "ada", password: "secret"))
    fixture.server.set("/old.xml", .redirect(to: fixture.server.url("/paid.xml")))

    let outcome = try await subscribe.run(
      feed: fixture.server.url("/old.xml"),
      credentials: { FeedCredentials(user: "ada", password: "secret") })

    XCTAssertEqual(
      outcome.subscription.feedURL,
      FeedCredentials(user: "ada", password: "secret").applied(to: fixture.server.url("/paid.xml")))
  }

  func testCredentialsAreNotPutOnAnotherHostsURL() async throws {
    let other = try LoopbackServer()
    defer { other.stop() }
    other.set(
      "/feed.xml",
      .text(
        fixture.rss("/feed.xml", title: "Elsewhere", count: 1), contentType: "application/rss+xml"))
    let elsewhere = "http://localhost:\(other.port)/feed.xml"
    fixture.server.set("/moved.xml", .redirect(to: elsewhere))

    let outcome = try await subscribe.run(
      feed: fixture.server.url("/moved.xml"),
      credentials: { FeedCredentials(user: "ada", password: "secret") })

    XCTAssertEqual(outcome.subscription.feedURL, elsewhere)
    XCTAssertNil(other.requests(for: "/feed.xml").first?.header("authorization"))
  }

  func testASubscriptionsNameIsRefusedBeforeThePasswordIsAskedFor() async throws {
    var asked = false
    do {
      _ = try await subscribe.run(
        feed: "alpha",
        credentials: {
          asked = true
          return FeedCredentials(user: "ada", password: "secret")
        })
      XCTFail("a subscription's name was subscribed to")
    } catch let failure as SubscribeToFeed.Failure {
      XCTAssertEqual(failure, .notAFeed("alpha"))
    }
    XCTAssertFalse(asked)
    XCTAssertFalse(fixture.libraryExists)
  }

  func testCredentialsNeedAnHTTPFeed() async throws {
    let path = try fixture.file("show.xml", fixture.rss("/file", title: "On Disk", count: 1))
    do {
      _ = try await subscribe.run(
        feed: path, credentials: { FeedCredentials(user: "ada", password: "secret") })
      XCTFail("credentials were accepted for a feed file")
    } catch let failure as SubscribeToFeed.Failure {
      XCTAssertEqual(failure, .credentialsNeedURL(feed: path))
    }
  }

  func testAFeedThatCannotBeFetchedSubscribesNothing() async throws {
    fixture.server.set("/gone.xml", .status(404))
    do {
      _ = try await subscribe.run(feed: fixture.server.url("/gone.xml"))
      XCTFail("a missing feed was subscribed to")
    } catch {}
    XCTAssertFalse(fixture.libraryExists, "the feed is fetched before the library is opened")
  }
}
