import Foundation
import XCTest

/// The shell completion scripts ask the binary for subscription names as the user types.
final class CompletionTests: LibraryTestCase {
  func testSubscriptionNamesCompleteForEveryCommandThatTakesOne() throws {
    for slug in ["history", "hardcore", "science"] {
      let feed = FeedFixture.serve(
        FeedFixture.episodes(1, size: 10), title: slug, at: "/\(slug).xml", on: server)
      XCTAssertEqual(try podcast("subscribe", feed, "--name", slug).status, 0)
    }
    for command in ["episodes", "download", "sync", "unsubscribe", "set", "mark"] {
      let result = try podcast(
        "---completion", command, "--", "positional@0", "2", "1", "podcast", command, "h")
      XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
      XCTAssertEqual(result.stdout.split(separator: "\n"), ["history", "hardcore"], command)
    }
    let script = try podcast("--generate-completion-script", "bash")
    XCTAssertTrue(script.stdout.contains("---completion episodes"), "the script asks the binary")
  }
}
