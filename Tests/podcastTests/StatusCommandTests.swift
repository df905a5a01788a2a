import Foundation
import LoopbackServer
import XCTest

/// `podcast status`: the progress buffer as the store has it, including downloads another
/// `podcast` process is running right now.
final class StatusCommandTests: LibraryTestCase {
  func testShowsALiveDownloadInAnotherProcessThenPausedAfterItIsKilled() throws {
    let show = Show("live", episodes: 1, size: 150_000, on: server)
    // Held mid-body until the kill; the hold is not a stall for the download to give up on.
    show.enclosure = { $0.stalling(after: 60_000, seconds: nil) }
    show.serve()
    binary.environment["PODCAST_TIMEOUT"] = "120"
    let url = server.url(show.newest.path)

    let download = try binary.start(["download", show.feedURL])
    XCTAssertTrue(server.wait { self.server.bodyBytesSent(for: show.newest.path) == 60_000 })
    var live: [String: Any] = [:]
    try eventually("status to show the download running") {
      guard let row = try statusRow(for: show.newest), row["state"] as? String == "downloading",
        (row["bytes"] as? Int ?? 0) > 0
      else { return false }
      live = row
      return true
    }
    XCTAssertEqual(live["url"] as? String, url)
    XCTAssertEqual(live["total"] as? Int, 150_000)
    XCTAssertEqual(live["title"] as? String, "live episode 1")
    XCTAssertEqual(live["podcast"] as? String, "live show")
    let progress = try XCTUnwrap(live["progress"] as? Double)
    XCTAssertTrue(progress > 0 && progress < 1, "\(progress)")
    XCTAssertNotNil(live["updated"] as? String)

    download.signal(SIGKILL)
    _ = try? download.wait()
    let after = try XCTUnwrap(try statusRow(for: show.newest))
    XCTAssertEqual(after["state"] as? String, "paused")
    XCTAssertGreaterThan(after["bytes"] as? Int ?? 0, 0)
    // The killed process saved its progress at most once a second; the file has the rest.
    let partials = binary.partialFiles().map { binary.library + "/.podcast/partial/" + $0 }
    let onDisk = try partials.map { try FileManager.default.attributesOfItem(atPath: $0)[.size] }
    XCTAssertEqual(onDisk.count, 1)
    XCTAssertEqual(
      after["bytes"] as? Int, onDisk.first as? Int, "paused rows show the bytes on disk")
    let text = try podcast("status")
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertTrue(
      text.stdout.contains("paused") && text.stdout.contains("live episode 1"), text.stdout)
    XCTAssertFalse(text.stdout.contains("downloading"), text.stdout)
  }

  /// `durableBytes`: what of a download a power cut cannot take back. A partial file is synced
  /// at checkpoints as it arrives (every 8 MiB), and that length outlives the process; a
  /// finished episode's file is durable whole.
  func testShowsWhatOfEachDownloadIsSyncedToDisk() throws {
    let mib = 1 << 20
    let show = Show("durable", episodes: 1, size: 20 * mib, on: server)
    show.enclosure = { $0.stalling(after: 12 * mib, seconds: nil) }
    show.serve()
    binary.environment["PODCAST_TIMEOUT"] = "120"

    let download = try binary.start(["download", show.feedURL])
    var durable = 0
    try eventually("a checkpoint of 8 MiB in the download's row") {
      guard let row = try statusRow(for: show.newest), row["state"] as? String == "downloading"
      else { return false }
      durable = row["durableBytes"] as? Int ?? 0
      return durable >= 8 * mib
    }
    XCTAssertLessThanOrEqual(durable, 12 * mib)
    download.signal(SIGKILL)
    _ = try? download.wait()
    let after = try XCTUnwrap(try statusRow(for: show.newest))
    XCTAssertEqual(after["state"] as? String, "paused")
    XCTAssertGreaterThanOrEqual(after["durableBytes"] as? Int ?? 0, durable, "it outlives the run")
    XCTAssertLessThanOrEqual(after["durableBytes"] as? Int ?? .max, after["bytes"] as? Int ?? 0)

    let small = Show("small", episodes: 1, on: server)
    XCTAssertEqual(try podcast("download", small.feedURL).status, 0)
    let done = try XCTUnwrap(try statusRow(for: small.newest))
    XCTAssertEqual(done["durableBytes"] as? Int, done["bytes"] as? Int)
  }

  func testFailedDownloadsShowTheReasonAndFinishedOnesShowDone() throws {
    let show = Show("mixed", episodes: 2, on: server)
    server.set(show.episode(1).path, .status(404, body: "gone"))

    let result = try podcast("download", show.feedURL, "1-2")
    XCTAssertEqual(result.status, 1, result.stderr)

    let done = try XCTUnwrap(try statusRow(for: show.episode(2)))
    XCTAssertEqual(done["state"] as? String, "done")
    XCTAssertEqual(done["bytes"] as? Int, 4_000)
    XCTAssertEqual(done["total"] as? Int, 4_000)
    XCTAssertEqual(done["progress"] as? Double, 1)
    let failed = try XCTUnwrap(try statusRow(for: show.episode(1)))
    XCTAssertEqual(failed["state"] as? String, "failed")
    XCTAssertTrue((failed["error"] as? String ?? "").contains("404"), "\(failed)")

    let text = try podcast("status")
    let failedLine =
      text.stdout.split(separator: "\n").first { $0.contains("mixed episode 1") } ?? ""
    XCTAssertTrue(failedLine.contains("failed") && failedLine.contains("404"), text.stdout)
  }

  func testEmptyLibrarySaysSo() throws {
    XCTAssertEqual(try statusRows().count, 0)
    XCTAssertEqual(
      try podcast("status").stdout.trimmingCharacters(in: .whitespacesAndNewlines),
      "No downloads yet.")
  }
}
