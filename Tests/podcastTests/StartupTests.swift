import Foundation
import LoopbackServer
import XCTest

/// Commands that never touch the network do not load libcurl and the two dozen libraries behind
/// it (half of every command's start-up time once); the first transfer opens it. The dynamic
/// loader's own log (`LD_DEBUG=files`) tells which shared objects a run loaded.
final class StartupTests: XCTestCase {
  private func loadedObjects(_ arguments: [String]) throws -> (status: Int32, log: String) {
    let result = try PodcastBinary.run(arguments, environment: ["LD_DEBUG": "files"])
    return (result.status, result.stderr)
  }

  func testHelpAndALocalFeedDoNotLoadLibcurl() throws {
    let feed = FileManager.default.temporaryDirectory
      .appendingPathComponent("startup-\(UUID().uuidString).xml")
    defer { try? FileManager.default.removeItem(at: feed) }
    let rss = FeedFixture.rss(
      title: "Local Show", episodes: FeedFixture.episodes(2), base: "http://127.0.0.1:9")
    try Data(rss.utf8).write(to: feed)

    for arguments in [["--help"], ["episodes", feed.path]] {
      let run = try loadedObjects(arguments)
      XCTAssertEqual(run.status, 0, "\(arguments): \(run.log)")
      XCTAssertFalse(run.log.contains("libcurl"), "\(arguments) loaded libcurl")
    }
  }

  func testAFeedByURLOpensLibcurlAndIsListed() throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let url = FeedFixture.serve(
      FeedFixture.episodes(2), title: "Loopback Show", at: "/feed.xml", on: server)
    let run = try PodcastBinary.run(
      ["episodes", url, "--json"], environment: ["LD_DEBUG": "files"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stderr.contains("file=libcurl.so.4"), "libcurl was not opened")
    XCTAssertTrue(run.stdout.contains("\"Episode 2\""), run.stdout)
  }
}
