import Foundation
import LoopbackServer
import XCTest

/// A throwaway library, a loopback server with its response log, and helpers to run the
/// `podcast` binary against them: the base of the sync and status tests.
class LibraryTestCase: XCTestCase {
  var server: LoopbackServer!
  var responses: ResponseLog!
  var binary: PodcastBinary!

  override func setUpWithError() throws {
    XCTAssertTrue(
      FileManager.default.isExecutableFile(atPath: PodcastBinary.url.path),
      "build the podcast executable first (swift build)")
    responses = ResponseLog()
    server = try LoopbackServer(log: responses.handler)
    binary = try PodcastBinary()
  }

  override func tearDownWithError() throws {
    server.stop()
    try? FileManager.default.removeItem(atPath: binary.library)
  }

  @discardableResult
  func podcast(_ arguments: String..., timeout: TimeInterval = 30) throws -> PodcastBinary.Result {
    try binary.run(arguments, timeout: timeout)
  }

  /// Runs a command that must succeed and returns its stdout parsed as JSON.
  func json(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws
    -> Any
  {
    let result = try binary.run(arguments)
    XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
    return try result.json()
  }

  func subscribe(_ show: Show, keep: Int? = nil, file: StaticString = #filePath, line: UInt = #line)
    throws
  {
    var arguments = ["subscribe", show.feedURL, "--name", show.slug]
    if let keep { arguments += ["--keep", String(keep)] }
    let result = try binary.run(arguments)
    XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
  }

  func subscriptions() throws -> [[String: Any]] {
    try XCTUnwrap(try json("subscriptions", "--json") as? [[String: Any]])
  }

  func statusRows() throws -> [[String: Any]] {
    try XCTUnwrap(try json("status", "--json") as? [[String: Any]])
  }

  func statusRow(for episode: FakeEpisode) throws -> [String: Any]? {
    try statusRows().first { $0["url"] as? String == server.url(episode.path) }
  }

  /// The contents of every finished file under Episodes.
  func episodeBodies() -> [Data] {
    binary.episodeFiles().compactMap {
      FileManager.default.contents(atPath: binary.episodesDirectory + "/" + $0)
    }
  }

  /// Whether the finished files are exactly these episodes, byte for byte.
  func assertEpisodeFiles(
    _ expected: [FakeEpisode], file: StaticString = #filePath, line: UInt = #line
  ) {
    let bodies = episodeBodies()
    XCTAssertEqual(
      bodies.count, expected.count, "files: \(binary.episodeFiles())", file: file, line: line)
    for episode in expected where !bodies.contains(episode.body) {
      XCTFail(
        "no file holds \(episode.title); files: \(binary.episodeFiles())", file: file, line: line)
    }
  }

  /// Polls until `condition` holds, failing the test after `timeout` seconds: a bound on a
  /// hang, not a pace, so it is generous for a busy machine.
  func eventually(
    _ what: String, timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line,
    _ condition: () throws -> Bool
  ) rethrows {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if try condition() { return }
      usleep(50_000)
    }
    XCTFail("timed out waiting for \(what)", file: file, line: line)
  }

  func requestCount(_ episode: FakeEpisode) -> Int {
    server.requests(for: episode.path).count
  }
}
