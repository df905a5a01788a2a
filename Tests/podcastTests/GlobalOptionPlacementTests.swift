import Foundation
import LoopbackServer
import XCTest

/// `--library DIR` and `--episodes-dir DIR` stand before or after the command name, for every
/// command and subcommand alike (README, "Episodes and downloads"). Each command runs once with
/// them before its name and once after, each in a library of its own: both must do the same
/// thing, in the library named, never in the one `PODCAST_LIBRARY` names.
final class GlobalOptionPlacementTests: LibraryTestCase {
  /// One step of a user's week: the command path, its other words, and what its output shows
  /// when it ran on the library named.
  private struct Step {
    var path: [String]
    var words: [String] = []
    var shows: String
  }

  /// Named alike in length, so tables padded to a path line up the same.
  private enum Placement: String, CaseIterable {
    case beforeCommand = "before"
    case afterCommand = "after-"
  }

  private var show: Show!
  private var other: Show!

  override func setUpWithError() throws {
    try super.setUpWithError()
    show = Show("placed", episodes: 3, on: server)
    other = Show("imported", episodes: 1, on: server)
    server.set(
      "/search",
      .text(
        #"{"resultCount": 1, "results": [{"collectionId": 7, "collectionName": "Placed Show", "#
          + #""feedUrl": "\#(show.feedURL)", "trackCount": 3}]}"#,
        contentType: "text/javascript"))
    binary.environment["PODCAST_ITUNES_URL"] = server.baseURL
    binary.environment["PODCAST_SYNC_PASSWORD"] = "s3cret"
    let json = { (text: String) in Route.text(text, contentType: "application/json") }
    server.set("/api/2/auth/alice/login.json", json("{}"))
    server.set("/api/2/devices/alice/box.json", json("{}"))
    server.set("/api/2/devices/alice.json", json("[]"))
    server.set(
      "/api/2/subscriptions/alice/box.json",
      json(#"{"add": [], "remove": [], "timestamp": 1000, "update_urls": []}"#))
    server.set(
      "/api/2/episodes/alice.json",
      json(#"{"actions": [], "timestamp": 1000, "update_urls": []}"#))
  }

  private func steps(opml: String) -> [Step] {
    [
      Step(path: ["search"], words: ["placed"], shows: "Placed Show"),
      Step(
        path: ["subscribe"], words: [show.feedURL, "--name", "placed"],
        shows: "Subscribed to placed show"),
      Step(path: ["subscriptions"], shows: "placed"),
      Step(path: ["episodes"], words: ["placed"], shows: "placed episode 3"),
      Step(path: ["download"], words: ["placed", "1"], shows: "downloaded"),
      Step(path: ["status"], words: ["--json"], shows: #""state": "done""#),
      Step(path: ["set"], words: ["placed", "--keep", "3"], shows: "placed: keep 3"),
      Step(path: ["mark"], words: ["placed", "3", "--skip"], shows: "Marked 1 episode to skip."),
      Step(path: ["sync"], shows: "1 feed checked"),
      Step(
        path: ["find"], words: ["episode", "3", "--podcast", "placed"], shows: "placed episode 3"),
      Step(path: ["export"], shows: show.feedURL),
      Step(path: ["import"], words: [opml], shows: "Imported 1 subscription"),
      Step(
        path: ["account", "add"],
        words: [server.baseURL, "--user", "alice", "--device", "box", "--api", "gpodder"],
        shows: "Linked this library to alice"),
      Step(path: ["account"], shows: "device           box"),
      Step(path: ["account", "show"], shows: "device           box"),
      Step(path: ["account", "sync"], shows: "Exchanged with"),
      Step(path: ["account", "remove"], shows: "Unlinked this library from alice"),
      Step(path: ["unsubscribe"], words: ["imported"], shows: "imported"),
      Step(path: ["help"], words: ["sync"], shows: "USAGE: podcast sync"),
    ]
  }

  func testEveryCommandTakesTheLibraryBeforeAndAfterItsName() throws {
    let decoy = binary.library + "/decoy"
    binary.environment["PODCAST_LIBRARY"] = decoy
    let opml = binary.library + "/in.opml"
    try Data(
      """
      <?xml version="1.0"?><opml version="2.0"><body>
      <outline type="rss" text="imported" xmlUrl="\(other.feedURL)"/></body></opml>
      """.utf8
    ).write(to: URL(fileURLWithPath: opml))
    let steps = steps(opml: opml)
    XCTAssertEqual(
      Set(steps.map { $0.path.joined(separator: " ") }), try commandPaths(),
      "a step for every command and subcommand the binary has")

    var outputs: [Placement: [String]] = [:]
    for placement in Placement.allCases {
      let library = binary.library + "/\(placement.rawValue)"
      let episodes = binary.library + "/\(placement.rawValue)-episodes"
      let globals = ["--library", library, "--episodes-dir", episodes]
      for step in steps {
        let arguments =
          placement == .beforeCommand
          ? globals + step.path + step.words
          : step.path + globals + step.words
        let result = try binary.run(arguments)
        let shown = "\(arguments): \(result.status)\n\(result.stdout)\(result.stderr)"
        XCTAssertEqual(result.status, 0, shown)
        XCTAssertTrue(result.stdout.contains(step.shows), shown)
        outputs[placement, default: []].append(
          Self.withoutTimes(
            result.stdout.replacingOccurrences(of: episodes, with: "EPISODES")
              .replacingOccurrences(of: library, with: "LIBRARY")))
      }
      let files = try FileManager.default.subpathsOfDirectory(atPath: episodes).filter {
        $0.hasSuffix(".mp3")
      }
      XCTAssertEqual(files.count, 1, "\(placement): \(files)")
      XCTAssertTrue(
        files.first?.hasSuffix("placed episode 3.mp3") == true,
        "the download went to the --episodes-dir given \(placement): \(files)")
    }
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: decoy), "PODCAST_LIBRARY's library was never used")
    let before = outputs[.beforeCommand] ?? []
    let after = outputs[.afterCommand] ?? []
    for (index, step) in steps.enumerated() {
      XCTAssertEqual(before[index], after[index], "\(step.path): the same either way")
    }
  }

  /// `text` with each moment (`2024-05-01 12:00 +02:00 (just now)`, JSON's `2024-05-01T10:00:00Z`)
  /// as `TIME`: the two runs are moments apart.
  private static func withoutTimes(_ text: String) -> String {
    let patterns = [
      #"\d{4}-\d\d-\d\d \d\d:\d\d [+-]\d\d:\d\d( \([^)]*\))?"#,
      #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#,
      #"\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}"#,
    ]
    return patterns.reduce(text) { text, pattern in
      text.replacingOccurrences(of: pattern, with: "TIME", options: .regularExpression)
    }
  }

  /// Every command path the binary has, from its own description of itself.
  private func commandPaths() throws -> Set<String> {
    let dump = try binary.run(["--experimental-dump-help"])
    let root = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])?[
        "command"] as? [String: Any])
    var paths: Set<String> = []
    func walk(_ command: [String: Any], _ path: [String]) {
      if !path.isEmpty { paths.insert(path.joined(separator: " ")) }
      for case let sub as [String: Any] in command["subcommands"] as? [Any] ?? [] {
        walk(sub, path + [sub["commandName"] as? String ?? ""])
      }
    }
    walk(root, [])
    return paths
  }
}
