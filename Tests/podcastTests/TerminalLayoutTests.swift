import Foundation
import LoopbackServer
import XCTest

/// What a user sees in a terminal 80 and 40 columns wide (a pseudo-terminal of that size, no
/// `COLUMNS`): every table and the progress view fit without wrapping, a show's episodes stay
/// told apart when titles are cut, and a failed download names its episode. A line that holds
/// a URL or a file's path alone is exempt: it is printed whole so it can be copied.
final class TerminalLayoutTests: LibraryTestCase {
  private let showTitle = "The Long-Running Weekly Conversation About Absolutely Everything"

  private func episodes(size: Int = 3_000) -> [FakeEpisode] {
    (1...4).map { part in
      FakeEpisode(
        title: "Episode 101: Why everything we know about the sea is slightly wrong - Part \(part)",
        guid: "long-\(part)",
        published: Date(timeIntervalSince1970: 1_715_335_200 + Double(part) * 86_400),
        path: "/long/media/\(part).mp3", body: FeedFixture.bytes(size, seed: UInt64(40 + part)))
    }.reversed()
  }

  private static func isURLOrPathAlone(_ line: String) -> Bool {
    let text = line.trimmingCharacters(in: .whitespaces)
    return line.hasPrefix(" ") && (text.hasPrefix("http") || text.hasPrefix("-> "))
  }

  private func terminal(_ arguments: [String], columns: Int) throws -> TerminalRun {
    try TerminalRun.run(binary, arguments, columns: columns)
  }

  func testEveryTableFitsEightyAndFortyColumns() throws {
    let feedURL = FeedFixture.serve(episodes(), title: showTitle, at: "/long/feed.xml", on: server)
    XCTAssertEqual(try podcast("subscribe", feedURL, "--name", "long", "--keep", "9").status, 0)
    let broken = Show("broken", episodes: 1, on: server)
    try subscribe(broken)
    server.set(broken.feedPath, .status(404))
    XCTAssertEqual(try podcast("download", "long", "1-2").status, 0)
    XCTAssertEqual(try podcast("sync", "broken").status, 1, "the failing feed, for its sign")
    server.set(
      "/search",
      .text(
        #"{"resultCount": 2, "results": [{"collectionId": 253191823, "collectionName": "\#(showTitle)", "#
          + #""artistName": "A Collective of Very Talkative Hosts", "feedUrl": "\#(feedURL)", "#
          + #""trackCount": 4}, {"collectionId": 7, "collectionName": "Members Only", "#
          + #""artistName": "Nobody"}]}"#, contentType: "text/javascript"))
    binary.environment["PODCAST_ITUNES_URL"] = server.baseURL

    for columns in [80, 40] {
      for arguments in [
        ["search", "everything"], ["subscriptions"], ["episodes", "long"], ["status"],
        ["download", "long", "1-2"], ["sync", "long", "--dry-run"],
        ["download", "long", "3"],
      ] {
        let run = try terminal(arguments, columns: columns)
        XCTAssertEqual(run.status, 0, "\(arguments): \(run.raw)")
        XCTAssertEqual(
          run.overflowing(columns, ignoring: Self.isURLOrPathAlone), [],
          "\(arguments) at \(columns) columns:\n\(run.lines.joined(separator: "\n"))")
      }

      let status = try terminal(["status"], columns: columns).lines
      for part in 2...4 {
        XCTAssertEqual(
          status.filter { $0.hasPrefix("done") && $0.hasSuffix("Part \(part)") }.count, 1,
          "each of one show's downloads told apart at \(columns):\n"
            + status.joined(separator: "\n"))
      }
      let listing = try terminal(["episodes", "long"], columns: columns).lines
      XCTAssertEqual(
        listing.filter { $0.hasSuffix("Part 4") || $0.hasSuffix("Part 1") }.count, 2,
        listing.joined(separator: "\n"))

      let subscriptions = try terminal(["subscriptions"], columns: columns).lines
      XCTAssertTrue(subscriptions.contains("   " + feedURL), subscriptions.joined(separator: "\n"))
      XCTAssertTrue(
        subscriptions.contains { $0.hasPrefix("   keep 9") }, subscriptions.joined(separator: "\n"))
      XCTAssertTrue(
        subscriptions.contains { $0.hasPrefix("   failing: ") && $0.contains("404") },
        "a feed that fails shows it in the table:\n" + subscriptions.joined(separator: "\n"))

      let downloaded = try terminal(["download", "long", "4"], columns: columns)
      XCTAssertTrue(
        downloaded.lines.contains {
          $0.hasPrefix("            -> Episodes/\(showTitle)/") && $0.hasSuffix("Part 1.mp3")
        }, "the file on its own line, relative to the library:\n" + downloaded.raw)
      let folder = binary.episodesDirectory + "/\(showTitle)"
      for file in try FileManager.default.contentsOfDirectory(atPath: folder)
      where file.hasSuffix("Part 1.mp3") {
        try FileManager.default.removeItem(atPath: folder + "/" + file)
      }
    }
  }

  /// Bars, percentages and sizes stay in their columns while titles and speeds change, and no
  /// live line reaches the last column.
  func testTheProgressViewFitsAndHoldsStill() throws {
    let feedURL = FeedFixture.serve(
      episodes(size: 60_000), title: showTitle, at: "/long/feed.xml", on: server
    ) { $0.trickling(bytesPerSecond: 60_000) }
    for columns in [80, 40] {
      let run = try terminal(
        [
          "download", feedURL, "--all", "--per-host", "2", "--library",
          binary.library + "/\(columns)",
        ],
        columns: columns)
      XCTAssertEqual(run.status, 0, run.raw)
      let bars = run.liveLines.filter { !$0.hasPrefix("Total:") && !$0.isEmpty }
      XCTAssertGreaterThan(bars.count, 4, "frames were drawn: \(run.raw)")
      for line in run.liveLines {
        XCTAssertLessThan(TerminalRun.width(line), columns, "reaches the last column: \(line)")
      }
      let percentColumns = Set(
        bars.compactMap { bar in
          bar.firstIndex(of: "%").map { bar.distance(from: bar.startIndex, to: $0) }
        })
      XCTAssertEqual(percentColumns.count, 1, "at \(columns):\n" + bars.joined(separator: "\n"))
      let barColumns = Set(
        bars.compactMap { bar in
          bar.firstIndex(of: "[").map { bar.distance(from: bar.startIndex, to: $0) }
        })
      XCTAssertLessThanOrEqual(barColumns.count, 1, bars.joined(separator: "\n"))
    }
  }

  /// In a terminal, a failed download names its episode (before, only the failure's URL showed
  /// there; the `failed <title>` line came only in a pipe).
  func testAFailedDownloadInATerminalNamesItsEpisode() throws {
    let list = episodes()
    let feedURL = FeedFixture.serve(list, title: showTitle, at: "/long/feed.xml", on: server)
    server.set("/long/media/3.mp3", .status(404))
    let run = try terminal(["download", feedURL, "1-3"], columns: 80)
    XCTAssertEqual(run.status, 1, run.raw)
    let lines = run.lines
    let failed = try XCTUnwrap(
      lines.firstIndex { $0.hasPrefix("failed") }, lines.joined(separator: "\n"))
    XCTAssertTrue(lines[failed].hasSuffix("Part 3"), lines[failed])
    XCTAssertTrue(
      lines[failed + 1].hasPrefix("podcast: ") && lines[failed + 1].contains("404"),
      lines.joined(separator: "\n"))
    XCTAssertEqual(lines.filter { $0.hasPrefix("downloaded") }.count, 2)
  }
}
