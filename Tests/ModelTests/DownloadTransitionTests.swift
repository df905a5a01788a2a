import Basics
import Foundation
import Model
import XCTest

/// The table of `DownloadTransition`: every move from every state a row can be in, and what
/// comes of it: a row in a given state, the row deleted, the row unchanged, or an error that
/// names the move (an illegal one never writes).
final class DownloadTransitionTests: XCTestCase {
  private let me: Int32 = 100
  private let other: Int32 = 200
  private let key = DownloadKey(feedURL: "https://a.example/feed", episodeKey: "guid:1", url: "")
  private let oldURL = "https://cdn.example/1.mp3?sig=old"
  private let newURL = "https://cdn.example/1.mp3?sig=new"
  private let moment = Date(timeIntervalSince1970: 1_800_000_000)

  /// Where a row can stand, with what the caller knows beside it.
  private enum Start: String, CaseIterable {
    case none, queued, downloadingHere, downloadingElsewhere, downloadingByTheDead, paused, failed
    case doneWithFile, doneFileGone
  }

  private enum Move: String, CaseIterable {
    case queueNow, queueLater, begin, progress, pause, fail, finish, relink
    case forgetUnstarted, forgetFinished, forgetSuperseded
  }

  private enum Expected: Equatable, CustomStringConvertible {
    case becomes(DownloadState)
    case deleted
    case unchanged
    case illegal

    var description: String {
      switch self {
      case .becomes(let state): "→ \(state.rawValue)"
      case .deleted: "deleted"
      case .unchanged: "unchanged"
      case .illegal: "illegal"
      }
    }
  }

  /// The whole table, one line per state, moves in `Move`'s order.
  private var table: [Start: [Expected]] {
    let q = Expected.becomes(.queued)
    let dl = Expected.becomes(.downloading)
    let p = Expected.becomes(.paused)
    let f = Expected.becomes(.failed)
    let d = Expected.becomes(.done)
    let u = Expected.unchanged
    let x = Expected.illegal
    let del = Expected.deleted
    return [
      //                      queueNow queueLater begin progress pause fail finish relink unstarted finished superseded
      .none: [q, q, x, x, x, x, x, x, u, u, u],
      .queued: [q, q, dl, x, x, x, d, q, del, x, del],
      .downloadingHere: [u, u, dl, dl, p, f, d, u, x, x, del],
      .downloadingElsewhere: [u, u, dl, dl, p, f, x, u, x, x, x],
      .downloadingByTheDead: [q, dl, dl, dl, p, f, d, dl, x, x, del],
      .paused: [q, p, dl, x, x, x, d, p, x, x, del],
      .failed: [q, f, dl, x, x, x, d, f, x, x, del],
      .doneWithFile: [u, u, x, x, x, x, x, u, x, del, u],
      .doneFileGone: [q, q, dl, x, x, x, d, u, x, del, u],
    ]
  }

  func testEveryMoveFromEveryState() {
    for start in Start.allCases {
      let expectations = table[start] ?? []
      XCTAssertEqual(expectations.count, Move.allCases.count, "row \(start)")
      for (move, expected) in zip(Move.allCases, expectations) {
        let got = outcome(of: move, from: start)
        XCTAssertEqual(got, expected, "\(move.rawValue) from \(start.rawValue)")
      }
    }
  }

  /// An illegal move is an error that says which move, on which download, from which state.
  func testAnIllegalMoveSaysWhatWasRefused() {
    XCTAssertThrowsError(
      try transition(.progress(DownloadProgress(bytes: 5))).outcome(
        for: row(.paused), key: key, partialPath: "/p", circumstances(for: .paused))
    ) { error in
      XCTAssertEqual(
        "\(error)", "cannot note progress on the download of \(oldURL): it is paused")
    }
    XCTAssertThrowsError(
      try DownloadTransition.begin(wanted(), pid: me, bytesOnDisk: 0).outcome(
        for: nil, key: key, partialPath: "/p", circumstances(for: .none))
    ) { error in
      XCTAssertEqual(
        "\(error)", "cannot begin the download of \(key.text): it is not in the library")
    }
  }

  /// A relink, or a queue under the feed's new link, moves the URL and keeps what the resume
  /// needs: the bytes and the validators they were fetched with.
  func testANewLinkKeepsTheBytesAndValidators() throws {
    for move in [DownloadTransition.relink(url: newURL), .queue(wanted(url: newURL, pid: me))] {
      guard
        case .write(let moved) = try move.outcome(
          for: row(.downloadingByTheDead), key: key, partialPath: "/p",
          circumstances(for: .downloadingByTheDead))
      else { return XCTFail("\(move)") }
      XCTAssertEqual(moved.url, newURL, "\(move)")
      XCTAssertEqual(moved.key, key, "\(move): the row stays the episode's")
      XCTAssertEqual(moved.bytes, 7_700, "\(move)")
      XCTAssertEqual(moved.total, 20_000, "\(move)")
      XCTAssertEqual(moved.etag, "\"v1\"", "\(move)")
      XCTAssertEqual(moved.lastModified, "Tue, 14 Nov 2023 22:13:20 GMT", "\(move)")
      XCTAssertEqual(moved.updatedAt, moment, "\(move)")
    }
  }

  func testFinishingRecordsTheFileAndDropsWhatOnlyARunNeeded() throws {
    let head = DownloadProgress.Head(validators: Validators(etag: "\"v2\""), total: 20_000)
    guard
      case .write(let done) = try DownloadTransition.finish(
        file: "/e/1.mp3", bytes: 20_000, DownloadProgress(bytes: 20_000, head: head)
      ).outcome(
        for: row(.downloadingHere), key: key, partialPath: "/p",
        circumstances(for: .downloadingHere))
    else { return XCTFail("not written") }
    XCTAssertEqual(done.state, .done)
    XCTAssertEqual(done.file, "/e/1.mp3")
    XCTAssertEqual(done.bytes, 20_000)
    XCTAssertEqual(done.total, 20_000)
    XCTAssertEqual(done.etag, "\"v2\"")
    XCTAssertNil(done.pid)
    XCTAssertNil(done.error)
    XCTAssertNil(done.details)
  }

  /// Queueing a finished episode whose file is gone starts it afresh: nothing of the old
  /// download is resumed.
  func testQueueingADeletedEpisodeStartsItAfresh() throws {
    guard
      case .write(let fresh) = try transition(.queue(wanted(url: newURL))).outcome(
        for: row(.doneFileGone), key: key, partialPath: "/p", circumstances(for: .doneFileGone))
    else { return XCTFail("not written") }
    XCTAssertEqual(fresh.state, .queued)
    XCTAssertEqual(fresh.url, newURL)
    XCTAssertEqual(fresh.bytes, 0)
    XCTAssertNil(fresh.file)
    XCTAssertNil(fresh.etag)
    XCTAssertNil(fresh.total)
  }

  // MARK: the table's cells

  private func outcome(of move: Move, from start: Start) -> Expected {
    do {
      switch try transition(move).outcome(
        for: start == .none ? nil : row(start), key: key, partialPath: "/p",
        circumstances(for: start))
      {
      case .unchanged: return .unchanged
      case .delete: return .deleted
      case .write(let next): return .becomes(next.state)
      }
    } catch {
      XCTAssertTrue(
        "\(error)".hasPrefix("cannot "), "\(move) from \(start): not the sentence: \(error)")
      return .illegal
    }
  }

  private func transition(_ move: Move) -> DownloadTransition {
    switch move {
    case .queueNow: .queue(wanted(url: newURL, pid: me))
    case .queueLater: .queue(wanted(url: newURL))
    case .begin: .begin(wanted(), pid: me, bytesOnDisk: 7_800)
    case .progress: .progress(DownloadProgress(bytes: 8_000))
    case .pause: .pause(reason: "interrupted", nil)
    case .fail: .fail(reason: "HTTP 503", nil)
    case .finish: .finish(file: "/e/found.mp3", bytes: 20_000, nil)
    case .relink: .relink(url: newURL)
    case .forgetUnstarted: .forget(.unstarted)
    case .forgetFinished: .forget(.finished)
    case .forgetSuperseded: .forget(.superseded)
    }
  }

  private func transition(_ transition: DownloadTransition) -> DownloadTransition { transition }

  private func wanted(url: String? = nil, pid: Int32? = nil) -> QueuedDownload {
    QueuedDownload(
      url: url ?? oldURL, podcastTitle: "Show", episodeTitle: "One",
      feedURL: "https://a.example/feed", identityKeys: ["guid:1"], details: "{}", pid: pid)
  }

  private func row(_ start: Start) -> DownloadRecord {
    var record = DownloadRecord(
      key: key, url: oldURL, podcastTitle: "Show", episodeTitle: "One", state: .queued,
      partialPath: "/p", updatedAt: moment.addingTimeInterval(-60), episodeKey: "guid:1",
      feedURL: "https://a.example/feed")
    switch start {
    case .none, .queued:
      break
    case .downloadingHere, .downloadingElsewhere, .downloadingByTheDead:
      record.state = .downloading
      record.pid = start == .downloadingHere ? me : other
    case .paused, .failed:
      record.state = start == .paused ? .paused : .failed
    case .doneWithFile, .doneFileGone:
      record.state = .done
      record.file = "/e/1.mp3"
    }
    if record.state != .queued {
      record.bytes = record.state == .done ? 20_000 : 7_700
      record.total = 20_000
      record.etag = "\"v1\""
      record.lastModified = "Tue, 14 Nov 2023 22:13:20 GMT"
    }
    return record
  }

  private func circumstances(for start: Start) -> DownloadTransition.Circumstances {
    DownloadTransition.Circumstances(
      pid: me, ownerAlive: start == .downloadingHere || start == .downloadingElsewhere,
      fileExists: start == .doneWithFile, now: moment)
  }
}
