import Foundation
import XCTest

/// oPodSync, the real sync server in the interoperability tests: its `serve` script (from the
/// folder `PODCAST_OPODSYNC` names) started on loopback with a data folder of its own and the
/// user alice, stopped and its folder removed by `stop()`.
final class OPodSync {
  static let user = "alice"
  static let password = "wonderland"

  /// `http://127.0.0.1:PORT`.
  let url: String
  let dataFolder: String
  private let pid: Int32

  init() throws {
    let folder = try TestTool.path("PODCAST_OPODSYNC", for: "the tests against oPodSync")
    dataFolder = NSTemporaryDirectory() + "podcast-opodsync-" + UUID().uuidString
    let printed = try TestTool.run(
      folder + "/serve", [dataFolder, "0", Self.user, Self.password])
    url = printed.trimmingCharacters(in: .whitespacesAndNewlines)
    let pidText = try String(contentsOfFile: dataFolder + "/pid", encoding: .utf8)
    guard let pid = Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)),
      url.hasPrefix("http://127.0.0.1:")
    else {
      throw TestToolError(description: "serve printed \(printed) and pid \(pidText)")
    }
    self.pid = pid
  }

  /// The server's log of requests and PHP errors, for a failing test's message.
  var log: String {
    (try? String(contentsOfFile: dataFolder + "/server.log", encoding: .utf8)) ?? ""
  }

  func stop() {
    kill(pid, SIGTERM)
    try? FileManager.default.removeItem(atPath: dataFolder)
  }
}
