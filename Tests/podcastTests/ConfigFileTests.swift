import Foundation
import LoopbackServer
import XCTest

/// `config.toml`: defaults for the library and any option; flags beat the environment, which
/// beats the file; a bad key or value is one line naming the file, the line and the key.
final class ConfigFileTests: LibraryTestCase {
  private var configDirectory: String { binary.library + "/xdg" }
  private var configPath: String { configDirectory + "/podcast/config.toml" }

  private func writeConfig(_ text: String) throws {
    try FileManager.default.createDirectory(
      atPath: configDirectory + "/podcast", withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: configPath))
    binary.environment["XDG_CONFIG_HOME"] = configDirectory
  }

  private func indexes(_ result: PodcastBinary.Result) throws -> [Int] {
    XCTAssertEqual(result.status, 0, result.stderr)
    let document = try XCTUnwrap(try result.json() as? [String: Any])
    return try XCTUnwrap(document["episodes"] as? [[String: Any]]).compactMap {
      $0["index"] as? Int
    }
  }

  func testFileDefaultsApplyAndFlagsAndEnvironmentBeatThem() throws {
    let feedURL = MixedFeed().serve(on: server)
    let fileLibrary = binary.library + "/from-file"
    try writeConfig(
      """
      # defaults for every command
      library = "\(fileLibrary)"
      match = '^full'   # titles only

      [episodes]
      limit = 2
      """)
    XCTAssertEqual(try indexes(try podcast("episodes", feedURL, "--json")), [1, 4])
    XCTAssertEqual(
      try indexes(try podcast("episodes", feedURL, "--json", "--match", "storm")), [6, 7],
      "a flag beats the file")

    // The environment (PODCAST_LIBRARY, set by the test harness) beats the file's library...
    XCTAssertEqual(try podcast("subscribe", feedURL, "--name", "mixed").status, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: fileLibrary + "/.podcast"))
    // ...and without it the file's library is used.
    binary.environment["PODCAST_LIBRARY"] = nil
    let listed = try podcast("subscriptions", "--json")
    XCTAssertEqual(listed.status, 0, listed.stderr)
    XCTAssertEqual((try listed.json() as? [Any])?.count, 0, "a new, empty library")
    XCTAssertEqual(try podcast("subscribe", feedURL, "--name", "mixed").status, 0)
    XCTAssertTrue(FileManager.default.fileExists(atPath: fileLibrary + "/.podcast"))
  }

  /// What `subscribe` queues for the first sync is named as that sync would name it: by the
  /// file's `name-template` for sync, even though the sync itself only gets a 304.
  func testSubscribeNamesTheFirstSyncsEpisodesByTheFilesTemplate() throws {
    try writeConfig(
      """
      [sync]
      name-template = "{podcast}/picked {title}.{ext}"
      """)
    let show = Show("templated", episodes: 2, on: server)
    try subscribe(show)
    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertEqual(server.requests(for: show.feedPath).last?.header("if-none-match"), show.etag)
    XCTAssertEqual(
      binary.episodeFiles().map { ($0 as NSString).lastPathComponent },
      [
        "picked templated episode 2.mp3"
      ])
  }

  func testABadKeyOrValueIsOneLineNamingTheFileLineAndKey() throws {
    for (text, line, key) in [
      ("library = \"/tmp/x\"\n\ncolour = \"red\"\n", 3, "colour"),
      ("[sync]\nlimit-rate = \"fast\"\n", 2, "limit-rate"),
      ("concurrency = 0\n", 1, "concurrency"),
      ("[episodes]\nconcurrency = 2\n", 2, "concurrency"),
      ("match = \"(\"\n", 1, "match"),
    ] {
      try writeConfig(text)
      let result = try podcast("subscriptions")
      XCTAssertEqual(result.status, 64, "\(text): \(result.stderr)")
      XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
      XCTAssertTrue(
        result.stderr.contains("\(configPath):\(line): \(key):"), "\(text): \(result.stderr)")
    }
    try writeConfig("match = \"unclosed\n")
    let syntax = try podcast("subscriptions")
    XCTAssertEqual(syntax.status, 64)
    XCTAssertTrue(syntax.stderr.contains("\(configPath):1:"), syntax.stderr)
  }

  /// Every key README.md's table documents, with every form of value it documents, is taken
  /// by the binary (`config.toml` is read and checked whatever the command).
  func testTheBinaryTakesEveryDocumentedKeyInEveryDocumentedForm() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../README.md").standardizedFileURL
    let text = try String(contentsOf: readme, encoding: .utf8)
    let table = try XCTUnwrap(text.range(of: "| key | for | value |"))
    var tried = 0
    for line in text[table.upperBound...].split(separator: "\n").dropFirst() {
      guard line.hasPrefix("|") else { break }
      let cells = line.split(separator: "|").map(String.init)
      let spans = { (cell: String) in
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
          .filter { $0.offset % 2 == 1 }.map { String($0.element) }
      }
      for key in spans(cells[0]) {
        for value in spans(cells[2]) {
          try writeConfig("\(key) = \(value)\n")
          let result = try podcast("subscriptions")
          XCTAssertEqual(result.status, 0, "\(key) = \(value): \(result.stderr)")
          XCTAssertEqual(result.stderr, "", "\(key) = \(value)")
          tried += 1
        }
      }
    }
    XCTAssertGreaterThan(tried, 40, "README.md's table of keys was read")
  }

  /// One rule for numbers: `first = 2` and `first = "2"`, `keep = "1"`, `limit = "1"` and
  /// `timeout = "30"` mean what the numbers mean.
  func testNumbersWorkAsTOMLNumbersAndAsNumericStrings() throws {
    let feedURL = MixedFeed().serve(on: server)
    for (index, first) in ["2", "\"2\""].enumerated() {
      try writeConfig(
        """
        timeout = "30"
        first = \(first)
        keep = "1"

        [episodes]
        limit = "1"
        """)
      let subscribed = try podcast("subscribe", feedURL, "--name", "mixed\(index)")
      XCTAssertEqual(subscribed.status, 0, "first = \(first): \(subscribed.stderr)")
      XCTAssertTrue(
        subscribed.stdout.contains("The next `podcast sync` downloads 2 episodes"),
        "first = \(first): \(subscribed.stdout)")
      XCTAssertEqual(try indexes(try podcast("episodes", feedURL, "--json")), [1])
      let listed = try XCTUnwrap(
        try podcast("subscriptions", "--json").json() as? [[String: Any]])
      XCTAssertEqual(listed.map { $0["keep"] as? Int }, [1])
      XCTAssertEqual(try podcast("unsubscribe", "mixed\(index)").status, 0)
    }
  }

  /// As in TOML, a table is opened once: a second `[sync]` is a mistake that names its line.
  func testATableOpenedTwiceIsRefused() throws {
    try writeConfig("[sync]\nquiet = true\n\n[sync]\nwait = true\n")
    let result = try podcast("subscriptions")
    XCTAssertEqual(result.status, 64, result.stderr)
    XCTAssertEqual(
      result.stderr,
      "podcast: \(configPath):4: [sync] is opened again (first on line 1); keep its keys under one\n"
    )
  }
}
