import Foundation
import SyncServerTestSupport
import XCTest

/// Debian's Chromium, driven by Selenium through `Scripts/page-browser.py` in the venv that
/// `make browser` makes (its python is what `PODCAST_BROWSER` names). One `session` is one
/// browser, started for its steps and closed after them; the script only acts and observes,
/// the tests decide what is right. Without the venv or Chromium the tests say so and skip,
/// except in CI, where they fail.
struct Browser {
  let python: String

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../Scripts/page-browser.py").standardizedFileURL.path

  init() throws {
    python = try TestTool.path(
      "PODCAST_BROWSER", for: "the archive pages' browser tests (Selenium and axe-core)")
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
    for tool in ["chromium", "chromedriver"] {
      let found = path.split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
      }
      if !found {
        // The same rule as a missing venv: say so and skip, but fail in CI.
        let reason = "\(tool) is not on PATH: the archive pages' browser tests cannot run"
        if ProcessInfo.processInfo.environment["CI"] == "true" {
          XCTFail(reason + " (CI must run them: `make test` installs Debian's chromium)")
        } else {
          print("skipping: \(reason) (`make browser` installs it)")
        }
        throw XCTSkip(reason)
      }
    }
  }

  /// One browser session: `steps` as `page-browser.py` takes them, one result for each.
  /// A step that failed in the browser fails the test, with what the steps before it gave.
  func session(
    _ steps: [[String: Any]], file: StaticString = #filePath, line: UInt = #line
  ) throws -> [Any] {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-browser-\(UUID().uuidString).json").path
    try JSONSerialization.data(withJSONObject: steps).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let output = try TestTool.run(python, [Self.script, path])
    let answer = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
      "page-browser.py printed \(output)", file: file, line: line)
    let results = answer["results"] as? [Any] ?? []
    if let error = answer["error"] as? String {
      XCTFail("the browser stopped at step \(results.count + 1): \(error)", file: file, line: line)
      throw TestToolError(description: error)
    }
    XCTAssertEqual(results.count, steps.count, file: file, line: line)
    return results
  }
}

/// What a `wait` step saw.
struct Waited {
  let ok: Bool
  let value: Any?

  init(_ result: Any) {
    let object = result as? [String: Any]
    ok = object?["ok"] as? Bool ?? false
    value = object?["value"]
  }
}

/// What a `log` step gave: the console's messages and every URL the page asked for.
struct BrowserLog {
  let console: [(level: String, message: String)]
  let requests: [String]

  init(_ result: Any) {
    let object = result as? [String: Any] ?? [:]
    console = (object["console"] as? [[String: Any]] ?? []).map {
      ($0["level"] as? String ?? "", $0["message"] as? String ?? "")
    }
    requests = object["requests"] as? [String] ?? []
  }

  /// Console messages of level SEVERE (what the console shows as errors).
  var errors: [String] { console.filter { $0.level == "SEVERE" }.map(\.message) }
}
