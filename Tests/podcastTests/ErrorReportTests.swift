import Foundation
import XCTest

/// Every command that fails ends the same way (the README's exit codes): one `podcast: <sentence>` line on
/// stderr naming the thing that failed, and the exit status the README's "Exit codes" gives.
final class ErrorReportTests: LibraryTestCase {
  /// A library path that is a plain file breaks every command that opens the library.
  func testEveryCommandReportsAnUnusableLibraryInOneLineAndExits1() throws {
    let feed = binary.library + "/feed.xml"
    try FeedFixture.rss(title: "Show", episodes: FeedFixture.episodes(2), base: server.baseURL)
      .write(toFile: feed, atomically: true, encoding: .utf8)
    let opml = binary.library + "/in.opml"
    try """
    <?xml version="1.0"?><opml version="2.0"><body>
    <outline type="rss" text="A" xmlUrl="\(server.url("/a.xml"))"/></body></opml>
    """.write(toFile: opml, atomically: true, encoding: .utf8)
    let notADirectory = binary.library + "/library-file"
    try "not a library".write(toFile: notADirectory, atomically: true, encoding: .utf8)

    let commands: [[String]] = [
      ["sync"], ["download", feed, "1"], ["mark", feed, "1", "--skip"], ["subscriptions"],
      ["unsubscribe", "show"], ["import", opml],
    ]
    for command in commands {
      let result = try binary.run(["--library", notADirectory] + command)
      XCTAssertEqual(result.status, 1, "\(command): \(result.stderr)")
      XCTAssertEqual(result.stderrLines.count, 1, "\(command): \(result.stderr)")
      let line = result.stderrLines.first ?? ""
      XCTAssertTrue(line.hasPrefix("podcast: "), "\(command): \(line)")
      XCTAssertTrue(line.contains(notADirectory), "\(command) names the library: \(line)")
    }
  }

}

/// The flag that fixes a bad value is named by the CLI, not by PodcastKit.
final class FlagHintTests: LibraryTestCase {
  func testABadFilterValueNamesItsFlag() throws {
    let feed = binary.library + "/feed.xml"
    try FeedFixture.rss(title: "Show", episodes: FeedFixture.episodes(2), base: server.baseURL)
      .write(toFile: feed, atomically: true, encoding: .utf8)
    let result = try podcast("episodes", feed, "--since", "someday")
    XCTAssertEqual(result.status, 64, result.stderr)
    XCTAssertTrue(result.stderr.contains("--since someday: not a date"), result.stderr)
  }

  func testATakenSubscriptionNameSaysWhichFlagChoosesAnother() throws {
    let first = Show("first", episodes: 1, on: server)
    let second = Show("second", episodes: 1, on: server)
    try subscribe(first)
    let result = try podcast("subscribe", second.feedURL, "--name", first.slug)
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertTrue(
      result.stderr.contains("named \"\(first.slug)\"; choose another with --name"), result.stderr)
  }
}
