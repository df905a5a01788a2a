import Basics
import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// The download rows: each move of a download as the downloader makes it, and the rows as
/// `podcast status` lists them.
final class DownloadRowsTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var rows: DownloadRows!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
    rows = DownloadRows(store: store)
  }

  func testDownloadRoundTripAndStateChanges() throws {
    let url = "https://cdn.example/a.mp3"
    var wanted = QueuedDownload(
      url: url, podcastTitle: "Show", episodeTitle: "Ep 1", feedURL: "https://cdn.example/f",
      identityKeys: ["guid:1"], owner: .current)
    let key = try XCTUnwrap(rows.queue([wanted]).first)
    XCTAssertEqual(
      key, DownloadKey(feedURL: "https://cdn.example/f", episodeKey: "guid:1", url: url))
    XCTAssertEqual(try rows.find(url: url)?.episodeTitle, "Ep 1")
    XCTAssertEqual(try rows.find(url: url)?.owner, .current)

    wanted.episodeTitle = "Ep 1 (renamed)"
    XCTAssertEqual(try rows.queue([wanted]), [key])
    XCTAssertEqual(
      try rows.all().count, 1, "queueing again keeps the one row")

    // The changes a running download makes (DownloadRow).
    try rows.transition(key, .begin(wanted, owner: .current, bytesOnDisk: 0))
    try rows.transition(
      key,
      .progress(
        DownloadProgress(
          bytes: 500,
          head: DownloadProgress.Head(validators: Validators(etag: "\"v1\""), total: 1000))))
    let running = try XCTUnwrap(rows.find(url: url))
    XCTAssertEqual(running.state, .downloading)
    XCTAssertEqual(running.progress, 0.5)
    XCTAssertEqual(running.episodeTitle, "Ep 1 (renamed)")

    try rows.transition(key, .fail(reason: "HTTP 503", nil))
    let failed = try XCTUnwrap(rows.find(url: url))
    XCTAssertEqual(failed.state, .failed)
    XCTAssertEqual(failed.error, "HTTP 503")
    XCTAssertEqual(failed.bytes, 500, "bytes are kept for the resume")
    XCTAssertNil(failed.owner)

    try rows.transition(
      key, .begin(wanted, owner: .current, bytesOnDisk: 500))
    try rows.recordFinished(
      key, file: "/e/Show/a.mp3", bytes: 1000, episode: nil)
    let done = try XCTUnwrap(rows.find(url: url))
    XCTAssertEqual(done.state, .done)
    XCTAssertEqual(done.file, "/e/Show/a.mp3")
    XCTAssertNil(done.error)
    XCTAssertEqual(done.progress, 1)

    try rows.forgetFinished(files: ["/e/Show/a.mp3"])
    XCTAssertNil(try rows.find(url: url))
  }

  /// A finish batch is one commit, but each download in it stands alone: one whose row
  /// another live process is running is refused, and the others are recorded done all the same.
  func testAFinishBatchRecordsEachDownloadAndRefusesOnlyTheOneItMayNotFinish() throws {
    let wanted = (0..<3).map {
      QueuedDownload(
        url: "https://cdn.example/\($0).mp3", episodeTitle: "Ep \($0)", owner: .current)
    }
    let keys = try rows.queue(wanted)
    // The middle one is running in another process: pid 1 is always alive.
    let init1 = try XCTUnwrap(ProcessOwner(running: 1))
    for (index, key) in keys.enumerated() {
      try rows.transition(
        key, .begin(wanted[index], owner: index == 1 ? init1 : .current, bytesOnDisk: 0))
    }
    let results = try rows.recordFinished(
      keys.enumerated().map { index, key in
        FinishedDownload(
          key: key, file: "/e/Show/\(index).mp3", bytes: 1000, progress: nil, episode: nil)
      })
    guard results.count == 3, case .success(let first?) = results[0],
      case .failure(let refused) = results[1], case .success(let last?) = results[2]
    else { return XCTFail("\(results)") }
    XCTAssertEqual([first.file, last.file], ["/e/Show/0.mp3", "/e/Show/2.mp3"])
    XCTAssertEqual(
      refused, .illegalDownloadMove(url: wanted[1].url, move: "finish", from: "downloading"))
    XCTAssertEqual(
      try keys.map { try rows.find(key: $0)?.state },
      [.done, .downloading, .done])
    XCTAssertEqual(try rows.find(key: keys[2])?.bytes, 1000)
  }

  func testANewDownloadsBeginIsWrittenWithItsFirstMove() throws {
    let wanted = (0..<3).map {
      QueuedDownload(
        url: "https://cdn.example/\($0).mp3", podcastTitle: "Show", episodeTitle: "Ep \($0)",
        owner: .current)
    }
    let keys = try rows.queue(wanted)
    var unwritten: [DownloadTransition] = []
    for (index, key) in keys.enumerated() {
      guard
        case .begun(let begun, let begin?) = try rows.start(
          key, wanted[index], owner: .current, bytesOnDisk: 0)
      else { return XCTFail("\(index): begun with a write") }
      XCTAssertEqual(begun.state, .downloading)
      unwritten.append(begin)
    }
    // Nothing written yet: the rows still show queued, by this live process.
    XCTAssertEqual(try keys.map { try rows.find(key: $0)?.state }, [.queued, .queued, .queued])
    XCTAssertEqual(try rows.find(key: keys[0])?.owner, .current)

    // The finish writes the begin with it; a pause and a progress note carry theirs too.
    let results = try rows.recordFinished([
      FinishedDownload(
        key: keys[0], file: "/e/Show/0.mp3", bytes: 1000, progress: nil, episode: nil,
        unwritten: unwritten[0])
    ])
    guard case .success(let finished?) = results.first else { return XCTFail("\(results)") }
    XCTAssertEqual(finished.state, .done)
    try rows.transition(keys[1], .pause(reason: "interrupted", nil), after: unwritten[1])
    XCTAssertEqual(try rows.find(key: keys[1])?.state, .paused)
    XCTAssertEqual(try rows.find(key: keys[1])?.error, "interrupted")
    try rows.transition(keys[2], .progress(DownloadProgress(bytes: 10)), after: unwritten[2])
    XCTAssertEqual(try rows.find(key: keys[2])?.state, .downloading)
    XCTAssertEqual(try rows.find(key: keys[2])?.bytes, 10)

    // A resume (bytes on disk) is begun at once, so `status` shows it running.
    guard
      case .begun(_, nil) = try rows.start(
        keys[1], wanted[1], owner: .current, bytesOnDisk: 10)
    else { return XCTFail("a resume left its begin unwritten") }
    XCTAssertEqual(try rows.find(key: keys[1])?.state, .downloading)
  }

  /// Rows moved to one link (`relink`: two feeds' episodes now point at the same file) are
  /// read back by key as SQLite orders text, by its bytes: `find(url:)` answers the first.
  /// Swift's `<` would call a precomposed "é" and "e" with a combining accent the same, and
  /// leave them in whichever order they were read; each order is tried.
  func testTheRowsOfOneLinkAreOrderedByTheirKeysBytes() throws {
    let precomposed = "https://caf\u{E9}.example/f"
    let decomposed = "https://cafe\u{301}.example/f"
    for (round, feeds) in [
      ["https://z.example/f", precomposed, decomposed],
      ["https://z.example/f", decomposed, precomposed],
    ].enumerated() {
      let url = "https://cdn.example/shared-\(round).mp3"
      for (offset, feedURL) in feeds.enumerated() {
        let key = try XCTUnwrap(
          rows.queue([
            QueuedDownload(
              url: "https://cdn.example/\(round)-\(offset).mp3", podcastTitle: feedURL,
              episodeTitle: "E", feedURL: feedURL, identityKeys: ["guid:\(round)"])
          ]).first)
        XCTAssertEqual(try rows.relink(key, to: url)?.url, url)
      }
      XCTAssertEqual(try rows.all().filter { $0.url == url }.count, 3)
      // Compared as bytes: Swift's == calls the two the same too.
      XCTAssertEqual(
        try rows.find(url: url).map { Array($0.podcastTitle.utf8) }, Array(decomposed.utf8),
        "round \(round)")
    }
  }

  func testDownloadsAreListedNewestFirstAndFilteredByState() throws {
    let now = Date()
    for (offset, state) in [DownloadState.done, .queued, .failed].enumerated() {
      try store.seed(
        DownloadRecord(
          url: "https://cdn.example/\(offset).mp3", podcastTitle: "S", episodeTitle: "E\(offset)",
          state: state, partialPath: "/p/\(offset)", file: state == .done ? "/e/0.mp3" : nil),
        updatedAt: now.addingTimeInterval(Double(offset)))
    }
    XCTAssertEqual(try rows.all().map(\.episodeTitle), ["E2", "E1", "E0"])
    XCTAssertEqual(
      try rows.all(in: [.queued, .failed]).map(\.state), [.failed, .queued])
    XCTAssertEqual(try rows.all(in: [.paused]), [])
  }

  /// Shown, never written: `status` reads a dead process's rows as paused.
  func testDownloadsOfDeadProcessesAreShownPaused() throws {
    try store.seed(
      DownloadRecord(
        url: "https://a/1", podcastTitle: "S", episodeTitle: "alive", state: .downloading,
        partialPath: "/p/1", owner: .current))
    try store.seed(
      DownloadRecord(
        url: "https://a/2", podcastTitle: "S", episodeTitle: "dead", state: .downloading,
        partialPath: "/p/2",
        owner: ProcessOwner(pid: Int32.max - 1, started: 1, boot: ProcessOwner.currentBoot)))
    let shown = Dictionary(
      uniqueKeysWithValues: try rows.forDisplay().map { ($0.url, $0.state) })
    XCTAssertEqual(shown, ["https://a/1": .downloading, "https://a/2": .paused])
    XCTAssertEqual(
      try rows.find(url: "https://a/2")?.state, .downloading,
      "nothing written")
  }
}
