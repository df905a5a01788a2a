import Downloads
import Fetching
import Foundation
import LoopbackServer
import Model
import SideFiles
import Store
import StoreTestSupport
import Transfer
import XCTest

@testable import Sync

/// A sync's run of feeds and downloads, and what follows them, with feeds served on loopback:
/// its two steps, and the order its report and playlist keep whichever download ends first.
final class SyncRunTests: XCTestCase {
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

  /// A feed `title` at `path` of episodes 1...`count`, newest first, each a 4 kB body.
  private func serve(_ title: String, at path: String, count: Int) {
    let items = (1...count).reversed().map { number in
      """
      <item><title>\(title) \(number)</title><guid>\(path)-\(number)</guid>
      <pubDate>\(String(format: "%02d", number)) May 2024 10:00:00 GMT</pubDate>
      <enclosure url="\(server.url("\(path)/\(number).mp3"))" length="4000" type="audio/mpeg"/>
      </item>
      """
    }
    server.set(
      path,
      .text(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>\(title)</title>
        \(items.joined(separator: "\n"))
        </channel></rss>
        """, contentType: "application/rss+xml"))
    for number in 1...count {
      server.set(
        "\(path)/\(number).mp3",
        .data(Data(repeating: UInt8(number), count: 4_000), contentType: "audio/mpeg"))
    }
  }

  private func subscribe(_ name: String, at path: String) throws -> Subscription {
    var settings = SubscriptionSettings()
    settings.first = .newest(3)
    return try Subscriptions(store: store).add(
      name: name, feedURL: server.url(path), title: nil, keep: nil, settings: settings)
  }

  private func run(playlist: String? = nil) -> SyncRun {
    // The bodies are not audio: tagging would only add a note to every outcome.
    var settings = DownloadSettings()
    settings.noTags = true
    return SyncRun(
      store: store, http: HTTPClient(), settings: settings, episodesDirectory: nil,
      filter: nil, playlist: playlist, readsPages: true)
  }

  /// The first step downloads and records; the second writes what follows from them. The
  /// report lists the subscriptions in the order given and each one's episodes as planned,
  /// however the downloads, several at once, happened to end.
  func testTheRunDownloadsThenFinishesInTheOrderOfThePlan() async throws {
    serve("Alpha", at: "/alpha.xml", count: 3)
    serve("Beta", at: "/beta.xml", count: 3)
    let subscriptions = [
      try subscribe("beta", at: "/beta.xml"), try subscribe("alpha", at: "/alpha.xml"),
    ]
    let playlist = library.directory.appendingPathComponent("run.m3u8").path
    let reporter = Reporter()
    let downloaded = try await run(playlist: playlist).download(subscriptions, reporter: reporter)
    let titles = downloaded.results.map { $0.job.title ?? "" }
    XCTAssertEqual(titles, ["Beta 3", "Beta 2", "Beta 1", "Alpha 3", "Alpha 2", "Alpha 1"])
    XCTAssertEqual(Set(reporter.ended), Set(titles), "each told as it ended")
    XCTAssertFalse(FileManager.default.fileExists(atPath: playlist), "written by the finish")
    XCTAssertEqual(
      try FinishedDownloads(store: store).files(feedURL: server.url("/beta.xml")).count, 3)

    let outcome = await run(playlist: playlist).finish(downloaded, reporter: reporter)
    XCTAssertFalse(outcome.failed, "\(reporter.problems)")
    XCTAssertEqual(outcome.results.map { $0.job.title ?? "" }, titles)
    XCTAssertTrue(outcome.playlistWritten)
    let written = try String(contentsOfFile: playlist, encoding: .utf8)
    XCTAssertTrue(written.contains("#EXTINF:-1,Beta - Beta 3"), written)
    for show in ["Alpha", "Beta"] {
      let folder = library.paths.episodes + "/" + show
      XCTAssertTrue(
        FileManager.default.fileExists(atPath: FolderPlaylist(folder: folder).path), show)
    }
  }

  /// The readable form of the order kept: a subscription's place first, then the episode's.
  func testPlacesOrderBySubscriptionThenEpisodeWithTheUnplannedLast() {
    let places = [
      SyncRun.Place.unplanned, SyncRun.Place(subscription: 1, episode: 0),
      SyncRun.Place(subscription: 0, episode: 2_000_000),
      SyncRun.Place(subscription: 0, episode: 1),
    ]
    XCTAssertEqual(
      places.sorted(),
      [
        SyncRun.Place(subscription: 0, episode: 1),
        SyncRun.Place(subscription: 0, episode: 2_000_000),
        SyncRun.Place(subscription: 1, episode: 0), .unplanned,
      ])
  }
}

/// A reporter that keeps the titles of the episodes told ended and the problems.
private final class Reporter: RunReporter, @unchecked Sendable {
  private let lock = NSLock()
  private var _ended: [String] = []
  private var _problems: [String] = []

  var ended: [String] { lock.withLock { _ended } }
  var problems: [String] { lock.withLock { _problems } }

  func batchStarted(_ progress: ProgressBuffer) {}
  func downloadEnded(_ result: DownloadResult) {
    lock.withLock { _ended.append(result.job.title ?? "") }
  }
  func batchEnded() {}
  func problem(_ error: Error, subject: String?) {
    lock.withLock { _problems.append(String(describing: error)) }
  }
}
