import Downloads
import Foundation
import LoopbackServer
import Model
import PodcastKit
import Selection
import Store
import StoreTestSupport
import XCTest

/// `podcast sync` in-process: choosing subscriptions, planning, the dry run and a real run,
/// against feeds on the loopback server.
final class SyncSubscriptionsTests: XCTestCase {
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

  private func subscribe(_ name: String, to feed: UseCaseFeed) throws {
    _ = try Subscriptions(store: store).add(
      name: name, feedURL: feed.url, title: nil, keep: nil, settings: SubscriptionSettings())
  }

  private func sync() throws -> SyncSubscriptions {
    // The bodies are not audio: tagging would only add a note to every outcome.
    var settings = DownloadSettings()
    settings.noTags = true
    return try SyncSubscriptions(
      library: Library(store: store), network: Network(), settings: settings)
  }

  func testNamesPickSubscriptionsOnceEachInTheOrderNamed() throws {
    try subscribe("alpha", to: UseCaseFeed(server: server, path: "/a.xml", count: 1))
    try subscribe("beta", to: UseCaseFeed(server: server, path: "/b.xml", count: 1))
    XCTAssertEqual(try sync().subscriptions(named: []).map(\.name), ["alpha", "beta"])
    XCTAssertEqual(
      try sync().subscriptions(named: ["beta", "al", "2"]).map(\.name), ["beta", "alpha"])
    XCTAssertThrowsError(try sync().subscriptions(named: ["gamma"]))
  }

  /// One sync per library: while another holds the library's lock, a run and a dry run are
  /// refused as busy before they read anything; once it is let go, the run goes ahead.
  func testARunWhileAnotherSyncHoldsTheLibraryIsBusy() async throws {
    let feed = UseCaseFeed(server: server, path: "/a.xml", count: 1)
    feed.serve()
    try subscribe("alpha", to: feed)
    let reporter = RecordingReporter()
    let other = try LibraryLock.acquire(paths: library.paths, wait: false)
    do {
      _ = try await sync().run([], reporter: reporter)
      XCTFail("a run went ahead while another sync held the library")
    } catch LibraryError.busy {}
    do {
      _ = try await sync().preview([], reporter: reporter)
      XCTFail("a dry run went ahead while another sync held the library")
    } catch LibraryError.busy {}
    XCTAssertEqual(server.requests(for: "/a.xml").count, 0)
    other.release()
    let outcome = try await sync().run([], reporter: reporter)
    XCTAssertEqual(outcome.results.count, 1)
    XCTAssertFalse(outcome.failed, "\(reporter.problems)")
  }

  /// The bounds of the run's settings are the domain's: a use case refuses settings out of
  /// them, whatever front end made them.
  func testSettingsOutOfBoundsAreRefused() throws {
    var tooMany = DownloadSettings()
    tooMany.concurrency = ParallelDownloads.range.upperBound + 1
    XCTAssertThrowsError(
      try SyncSubscriptions(library: Library(store: store), network: Network(), settings: tooMany)
    ) { error in
      XCTAssertEqual(
        error as? FilterError,
        .outOfRange(setting: "concurrency", value: 33, range: ParallelDownloads.range))
    }
    var noShare = DownloadSettings()
    noShare.perHost = 0
    XCTAssertThrowsError(try DownloadEpisodes(choice: .newest, filter: nil, settings: noShare)) {
      XCTAssertEqual(($0 as? FilterError)?.setting, "per-host")
    }
  }

  func testTheDryRunSaysWhatTheRunThenDoes() async throws {
    let feed = UseCaseFeed(server: server, path: "/a.xml", count: 3)
    feed.serve()
    try subscribe("alpha", to: feed)
    let reporter = RecordingReporter()

    let preview = try await sync().preview([], reporter: reporter)
    // The first sync takes the newest episode only.
    XCTAssertEqual(preview.planned.map(\.job.url), [feed.enclosure(3)])
    XCTAssertFalse(FileManager.default.fileExists(atPath: preview.planned[0].file))

    let outcome = try await sync().run([], reporter: reporter)
    XCTAssertEqual(
      outcome.results.map(\.outcome),
      [.downloaded(file: preview.planned[0].file, bytes: Int64(feed.body(3).count))])
    XCTAssertEqual(FileManager.default.contents(atPath: preview.planned[0].file), feed.body(3))
    XCTAssertFalse(outcome.failed)
    XCTAssertEqual(reporter.problems, [])
    XCTAssertTrue(reporter.allBatchesEnded)
  }

  /// A run's downloads do not wait for its slowest feed: the episode of a feed that is in is
  /// fetched while another feed is still arriving, and the run still ends with both, in the
  /// order the subscriptions are listed.
  func testAnEpisodeDownloadsWhileAnotherFeedIsStillArriving() async throws {
    let slow = UseCaseFeed(server: server, path: "/slow.xml", count: 1)
    slow.serve { $0.stalling(after: 40, seconds: nil) }
    try subscribe("slow", to: slow)
    let quick = UseCaseFeed(server: server, path: "/quick.xml", count: 1)
    quick.serve()
    try subscribe("quick", to: quick)
    let reporter = RecordingReporter()
    let run = try sync()

    let running = Task { try await run.run([], reporter: reporter) }
    let quickEpisode = "/quick.xml/episode-1.mp3"
    XCTAssertTrue(
      server.wait { server.bodyBytesSent(for: quickEpisode) == quick.body(1).count },
      "quick's episode was fetched while slow's feed stalled")
    XCTAssertEqual(server.requests(for: "/slow.xml/episode-1.mp3").count, 0)
    server.releaseStalls()
    let outcome = try await running.value

    XCTAssertEqual(outcome.results.map(\.job.url), [slow.enclosure(1), quick.enclosure(1)])
    XCTAssertFalse(outcome.failed, "\(reporter.problems)")
    XCTAssertEqual(reporter.batches, 1)
    XCTAssertTrue(reporter.allBatchesEnded)
  }

  /// A subscription with a folder of its own is downloaded in a batch of its own after the
  /// run's, as before.
  func testASubscriptionWithItsOwnFolderGetsABatchOfItsOwnAfterTheRun() async throws {
    let plain = UseCaseFeed(server: server, path: "/plain.xml", count: 1)
    plain.serve()
    try subscribe("plain", to: plain)
    let own = UseCaseFeed(server: server, path: "/own.xml", count: 1)
    own.serve()
    var settings = SubscriptionSettings()
    let folder = library.directory.appendingPathComponent("Elsewhere").path
    settings.episodesDir = folder
    _ = try Subscriptions(store: store).add(
      name: "own", feedURL: own.url, title: nil, keep: nil, settings: settings)
    let reporter = RecordingReporter()
    let outcome = try await sync().run([], reporter: reporter)

    XCTAssertEqual(outcome.results.map(\.job.url), [plain.enclosure(1), own.enclosure(1)])
    XCTAssertEqual(reporter.batches, 2)
    guard case .downloaded(let file, _, _) = outcome.results.last?.outcome else {
      return XCTFail("\(outcome.results)")
    }
    XCTAssertTrue(file.hasPrefix(folder + "/"), file)
    XCTAssertFalse(outcome.failed, "\(reporter.problems)")
  }

  func testAFeedThatFailsIsToldByNameAndTheOthersStillSync() async throws {
    let good = UseCaseFeed(server: server, path: "/good.xml", count: 2)
    good.serve()
    try subscribe("good", to: good)
    server.set("/gone.xml", Route.text("gone").withStatus(410))
    _ = try Subscriptions(store: store).add(
      name: "gone", feedURL: server.url("/gone.xml"), title: nil, keep: nil,
      settings: SubscriptionSettings())
    let reporter = RecordingReporter()
    let outcome = try await sync().run([], reporter: reporter)
    XCTAssertEqual(outcome.plan.failedFeeds.map(\.subscription.name), ["gone"])
    XCTAssertEqual(reporter.problems.count, 1)
    XCTAssertTrue(reporter.problems[0].hasPrefix("gone: "), reporter.problems[0])
    XCTAssertEqual(outcome.results.count, 1)
    XCTAssertTrue(outcome.failed)
  }

  func testThePlaylistOfARunListsWhatItDownloaded() async throws {
    let feed = UseCaseFeed(server: server, path: "/a.xml", count: 2)
    feed.serve()
    var settings = SubscriptionSettings()
    settings.first = .newest(2)
    _ = try Subscriptions(store: store).add(
      name: "alpha", feedURL: feed.url, title: nil, keep: nil, settings: settings)
    var run = try sync()
    run.playlist = library.directory.appendingPathComponent("run.m3u8").path
    let reporter = RecordingReporter()
    let outcome = try await run.run([], reporter: reporter)
    XCTAssertTrue(outcome.playlistWritten)
    let playlist = try String(contentsOfFile: try XCTUnwrap(run.playlist), encoding: .utf8)
    let lines = playlist.split(separator: "\n").filter { !$0.hasPrefix("#") }
    XCTAssertEqual(lines.count, 2, playlist)
  }
}
