import Foundation
import LoopbackServer
import Model
import Source
import Store
import StoreTestSupport
import Sync
import Transfer
import XCTest

/// The sync's planning half with a real library in a temporary directory and feeds served on
/// loopback: what it plans to download, what a 304 costs, the first-sync policy, and a failing
/// feed among good ones.
final class SyncPlannerTests: XCTestCase {
  private var server: LoopbackServer!
  private var library: TemporaryLibrary!
  private var store: LibraryStore!

  override func setUpWithError() throws {
    server = try LoopbackServer()
    library = try TemporaryLibrary()
    store = try library.store()
  }

  override func tearDownWithError() throws {
    server.stop()
  }

  // MARK: Helpers

  /// The enclosure URL of episode `number` of the feed at `path`.
  private func enclosure(_ path: String, _ number: Int) -> String {
    server.url("\(path)/episode-\(number).mp3")
  }

  /// A feed of episodes 1...`count`, the newest (highest number) first, one day apart.
  private func rss(_ path: String, count: Int) -> String {
    let items = (1...count).reversed().map { number in
      """
      <item><title>Episode \(number)</title><guid>\(path)-\(number)</guid>
      <pubDate>\(String(format: "%02d", number)) May 2024 10:00:00 GMT</pubDate>
      <enclosure url="\(enclosure(path, number))" length="1000" type="audio/mpeg"/></item>
      """
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0"><channel><title>Show \(path)</title>
      \(items.joined(separator: "\n"))
      </channel></rss>
      """
  }

  private func serveFeed(at path: String, count: Int, etag: String? = nil) {
    let route = Route.text(rss(path, count: count), contentType: "application/rss+xml")
    server.set(path, etag.map { route.withETag($0) } ?? route)
  }

  @discardableResult
  private func subscribe(_ name: String, at path: String, first: FirstSyncPolicy? = nil) throws
    -> Subscription
  {
    var settings = SubscriptionSettings()
    settings.first = first
    return try Subscriptions(store: store).add(
      name: name, feedURL: server.url(path), title: nil, keep: nil, settings: settings)
  }

  private func planner(dryRun: Bool = false) throws -> SyncPlanner {
    var planner = SyncPlanner(
      store: store, loader: FeedLoader(http: HTTPClient()), namer: try FileNamer(),
      dryRun: dryRun)
    planner.feedRetry = RetryPolicy(attempts: 2, delay: .milliseconds(10))
    return planner
  }

  /// Plans every subscription as the library has it now.
  private func plan(dryRun: Bool = false) async throws -> SyncPlan {
    try await planner(dryRun: dryRun).plan(try Subscriptions(store: store).all())
  }

  private func newEpisodes(_ outcome: SyncPlan.FeedOutcome?) -> Int? {
    switch outcome {
    case .updated(let count): count
    case .unchanged: 0
    case .failed, nil: nil
    }
  }

  // MARK: Tests

  func testTheFirstSyncPlansTheNewestEpisodeAndTheNextOneWhatIsNew() async throws {
    serveFeed(at: "/feed", count: 3, etag: "\"v1\"")
    let subscription = try subscribe("show", at: "/feed")

    let first = try await plan()
    XCTAssertEqual(first.downloads.map(\.job.url), [enclosure("/feed", 3)])
    XCTAssertEqual(first.downloads.map(\.subscriptionId), [subscription.id])
    XCTAssertEqual(newEpisodes(first.feeds.first?.outcome), 1)

    serveFeed(at: "/feed", count: 5, etag: "\"v2\"")
    let second = try await plan()
    XCTAssertEqual(
      second.downloads.map(\.job.url),
      [enclosure("/feed", 5), enclosure("/feed", 4), enclosure("/feed", 3)],
      "the two new ones, then the one the first sync queued and nobody downloaded yet")
    XCTAssertEqual(newEpisodes(second.feeds.first?.outcome), 2)
  }

  func testAnUnchangedFeedCostsA304AndPlansNothingNew() async throws {
    serveFeed(at: "/feed", count: 3, etag: "\"v1\"")
    try subscribe("show", at: "/feed")
    _ = try await plan()

    let again = try await plan()

    let requests = server.requests(for: "/feed")
    XCTAssertEqual(requests.count, 2)
    XCTAssertEqual(requests.last?.header("If-None-Match"), "\"v1\"")
    XCTAssertEqual(newEpisodes(again.feeds.first?.outcome), 0)
    XCTAssertEqual(
      again.downloads.map(\.job.url), [enclosure("/feed", 3)],
      "only the download still waiting from the first sync")
    XCTAssertNotNil(try Subscriptions(store: store).all().first?.lastChecked)
  }

  /// The usual hour, where the planner asks every feed itself and takes each answer as it
  /// comes: a 304 is recorded as checked with nothing planned, a feed that changed is read
  /// from the answer it gave (not asked for again), and a server error on the conditional
  /// request is tried again as any feed's is.
  func testEachConditionalAnswerIsTakenAsItCameAndAskedForOnce() async throws {
    let feed = { (path: String, count: Int, etag: String) in
      Route.text(self.rss(path, count: count), contentType: "application/rss+xml").withETag(etag)
    }
    server.set("/same", feed("/same", 2, "\"s1\""))
    server.set("/changed", feed("/changed", 2, "\"c1\""))
    server.set("/flaky", feed("/flaky", 2, "\"f1\""))
    for path in ["/same", "/changed", "/flaky"] {
      try subscribe(String(path.dropFirst()), at: path, first: FirstSyncPolicy.none)
    }
    _ = try await plan()
    let checked = try Subscriptions(store: store).all().map(\.lastChecked)
    server.set("/changed", feed("/changed", 3, "\"c2\""))
    server.set("/flaky", .sequence([.status(503), feed("/flaky", 2, "\"f1\"")]))

    let again = try await plan()

    XCTAssertEqual(again.feeds.map(\.subscription.name), ["same", "changed", "flaky"])
    XCTAssertTrue(again.failedFeeds.isEmpty, "\(again.feeds)")
    XCTAssertEqual(again.feeds.map { newEpisodes($0.outcome) }, [0, 1, 0])
    XCTAssertEqual(again.downloads.map(\.job.url), [enclosure("/changed", 3)])
    XCTAssertEqual(server.requests(for: "/same").count, 2)
    XCTAssertEqual(server.requests(for: "/changed").count, 2, "the changed feed's 200 was read")
    XCTAssertEqual(server.requests(for: "/flaky").count, 3, "a 503, then the retry's 304")
    XCTAssertEqual(server.requests(for: "/same").last?.header("If-None-Match"), "\"s1\"")
    let stored = try Subscriptions(store: store).all()
    for (before, after) in zip(checked, stored) {
      XCTAssertGreaterThan(
        try XCTUnwrap(after.lastChecked), try XCTUnwrap(before), "\(after.name) checked again")
      XCTAssertNil(after.lastError)
    }
    XCTAssertEqual(stored[1].etag, "\"c2\"", "the changed feed's new validators are kept")
  }

  /// More 304s than a batch of checked feeds (256), heard on the transfer thread: every one is
  /// recorded by the time the plan is back (the last batch and the one written on the way),
  /// and only the feed that changed goes through `planned`.
  func testEveryUnchangedFeedIsRecordedAndOnlyAChangedOneIsPlanned() async throws {
    let paths = (1...300).map { "/same-\($0)" } + ["/changed"]
    for path in paths {
      serveFeed(at: path, count: 1, etag: "\"\(path)-1\"")
      try subscribe(String(path.dropFirst()), at: path, first: FirstSyncPolicy.none)
    }
    _ = try await plan()
    let checked = try Subscriptions(store: store).all().map(\.lastChecked)
    serveFeed(at: "/changed", count: 2, etag: "\"changed-2\"")
    let heard = Heard()

    let again = try await planner().plan(try Subscriptions(store: store).all()) { index, part in
      await heard.add(index)
      return part
    }

    XCTAssertEqual(again.feeds.map(\.subscription.name), paths.map { String($0.dropFirst()) })
    XCTAssertEqual(
      again.feeds.map { newEpisodes($0.outcome) }, Array(repeating: 0, count: 300) + [1])
    let indexes = await heard.indexes
    XCTAssertEqual(indexes, [300], "only the changed feed's part")
    XCTAssertEqual(again.downloads.map(\.job.url), [enclosure("/changed", 2)])
    let stored = try Subscriptions(store: store).all()
    for (before, after) in zip(checked, stored) {
      XCTAssertGreaterThan(
        try XCTUnwrap(after.lastChecked), try XCTUnwrap(before), "\(after.name) checked again")
    }
    XCTAssertEqual(
      server.requests(for: "/same-300").last?.header("If-None-Match"), "\"/same-300-1\"")
  }

  /// A subscription that looks never refreshed (no check, no validators) is planned without
  /// reading its episodes; one that has some stored all the same (a run that read part of a
  /// paged feed, then failed) finds them when its record is written, and only what is new
  /// counts as new.
  func testEpisodesStoredForASubscriptionNeverCheckedAreNotNewAgain() async throws {
    serveFeed(at: "/feed", count: 3)
    let subscription = try subscribe("feed", at: "/feed")
    try EpisodeLog(store: store).record(
      subscriptionId: subscription.id,
      episodes: [2, 1].map {
        SeenEpisode(
          subscriptionId: subscription.id, guid: "/feed-\($0)",
          enclosureURL: enclosure("/feed", $0),
          title: "Episode \($0)", published: nil)
      })

    let plan = try await plan()

    XCTAssertEqual(plan.feeds.map { newEpisodes($0.outcome) }, [1])
    XCTAssertEqual(
      try EpisodeLog(store: store).episodes(subscriptionId: subscription.id).compactMap(\.guid)
        .sorted(),
      ["/feed-1", "/feed-2", "/feed-3"])
    XCTAssertEqual(plan.downloads.map(\.job.url), [enclosure("/feed", 3)])
  }

  func testTheFirstSyncPolicyDecidesHowMuchOfTheBacklogIsPlanned() async throws {
    let policies: [(String, FirstSyncPolicy?, [Int])] = [
      ("/default", nil, [5]), ("/two", .newest(2), [5, 4]), ("/all", .all, [5, 4, 3, 2, 1]),
      ("/none", FirstSyncPolicy.none, []),
    ]
    for (path, policy, _) in policies {
      serveFeed(at: path, count: 5)
      try subscribe(String(path.dropFirst()), at: path, first: policy)
    }

    let plan = try await plan()

    XCTAssertTrue(plan.failedFeeds.isEmpty)
    for (path, policy, expected) in policies {
      let planned = plan.downloads.map(\.job.url).filter { $0.hasPrefix(server.url(path) + "/") }
      XCTAssertEqual(planned, expected.map { enclosure(path, $0) }, "\(String(describing: policy))")
    }
  }

  func testAFailedFeedIsReportedAndTheOthersAreStillPlanned() async throws {
    serveFeed(at: "/good", count: 2)
    server.set("/gone", .status(404))
    try subscribe("gone", at: "/gone")
    let good = try subscribe("good", at: "/good")

    let plan = try await plan()

    XCTAssertEqual(plan.feeds.map(\.subscription.name), ["gone", "good"], "in the given order")
    XCTAssertEqual(plan.failedFeeds.map(\.subscription.name), ["gone"])
    guard case .failed(let error) = plan.failedFeeds.first?.outcome else {
      return XCTFail("\(plan.feeds)")
    }
    XCTAssertEqual(
      error as? TransferError,
      .httpStatus(url: server.url("/gone"), status: 404, retryAfter: nil))
    XCTAssertEqual(server.requests(for: "/gone").count, 1, "a 404 is not tried again")
    XCTAssertEqual(plan.downloads.map(\.job.url), [enclosure("/good", 2)])
    XCTAssertEqual(plan.downloads.map(\.subscriptionId), [good.id])
    let stored = try Subscriptions(store: store).all()
    XCTAssertTrue(stored[0].lastError?.contains("404") == true, "\(stored[0])")
    XCTAssertNil(stored[0].lastChecked)
    XCTAssertNil(stored[1].lastError)
  }

  func testAServerErrorIsTriedAgainWithinTheRun() async throws {
    server.set(
      "/feed",
      .sequence([
        .status(503), .text(rss("/feed", count: 2), contentType: "application/rss+xml"),
      ]))
    try subscribe("show", at: "/feed")

    let plan = try await plan()

    XCTAssertTrue(plan.failedFeeds.isEmpty, "\(plan.feeds)")
    XCTAssertEqual(server.requests(for: "/feed").count, 2, "a 503, then the retry")
    XCTAssertEqual(plan.downloads.map(\.job.url), [enclosure("/feed", 2)])
  }

  func testADryRunPlansButRecordsNothing() async throws {
    serveFeed(at: "/feed", count: 3, etag: "\"v1\"")
    let subscription = try subscribe("show", at: "/feed")
    let id = subscription.id

    let plan = try await plan(dryRun: true)

    XCTAssertEqual(plan.downloads.map(\.job.url), [enclosure("/feed", 3)])
    XCTAssertFalse(try EpisodeLog(store: store).hasAny(subscriptionId: id))
    let stored = try XCTUnwrap(try Subscriptions(store: store).all().first)
    XCTAssertNil(stored.lastChecked)
    XCTAssertNil(stored.etag)
    XCTAssertNil(try DownloadRows(store: store).find(url: enclosure("/feed", 3)), "nothing queued")
  }

  /// A host whose links differ only in the query (`download.php?id=N`): the dry run must see a
  /// new GUID as new, as the real run does, not as the episode that shares its link.
  func testADryRunCountsAsNewWhatTheRealRunDownloads() async throws {
    func feed(_ count: Int) -> String {
      let items = (1...count).reversed().map { number in
        """
        <item><title>Episode \(number)</title><guid>g\(number)</guid>
        <pubDate>\(String(format: "%02d", number)) May 2024 10:00:00 GMT</pubDate>
        <enclosure url="\(server.url("/shared/download.php?id=\(number)"))" length="1000" type="audio/mpeg"/></item>
        """
      }
      return "<rss version=\"2.0\"><channel><title>Shared</title>\(items.joined())</channel></rss>"
    }
    server.set("/shared", .text(feed(2), contentType: "application/rss+xml"))
    try subscribe("shared", at: "/shared", first: .all)
    _ = try await plan()

    server.set("/shared", .text(feed(3), contentType: "application/rss+xml"))
    let preview = try await plan(dryRun: true)
    let real = try await plan()
    let new = server.url("/shared/download.php?id=3")
    XCTAssertEqual(real.downloads.map(\.job.url).first, new)
    XCTAssertEqual(preview.downloads.map(\.job.url).first, new, "the dry run agrees")
    XCTAssertEqual(
      newEpisodes(preview.feeds.first?.outcome), newEpisodes(real.feeds.first?.outcome))
  }
}

/// The places of the parts `planned` heard.
private actor Heard {
  var indexes: [Int] = []

  func add(_ index: Int) {
    indexes.append(index)
  }
}
