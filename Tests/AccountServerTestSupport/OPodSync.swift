import Foundation
import XCTest

/// oPodSync, the real sync server in the interoperability tests: its `serve` script (from the
/// folder `PODCAST_OPODSYNC` names) started on loopback with a data folder of its own and the
/// user alice, stopped and its folder removed by `stop()`.
public final class OPodSync {
  public static let user = "alice"
  public static let password = "wonderland"

  /// `http://127.0.0.1:PORT`.
  public let url: String
  public let dataFolder: String
  private let serve: String
  private var pid: Int32

  public init() throws {
    let folder = try TestTool.path("PODCAST_OPODSYNC", for: "the tests against oPodSync")
    serve = folder + "/serve"
    dataFolder = NSTemporaryDirectory() + "podcast-opodsync-" + UUID().uuidString
    (url, pid) = try Self.start(serve, dataFolder, port: "0")
  }

  private static func start(_ serve: String, _ dataFolder: String, port: String) throws
    -> (String, Int32)
  {
    let printed = try TestTool.run(serve, [dataFolder, port, user, password])
    let url = printed.trimmingCharacters(in: .whitespacesAndNewlines)
    let pidText = try String(contentsOfFile: dataFolder + "/pid", encoding: .utf8)
    guard let pid = Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)),
      url.hasPrefix("http://127.0.0.1:")
    else {
      throw TestToolError(description: "serve printed \(printed) and pid \(pidText)")
    }
    return (url, pid)
  }

  /// The server's log of requests and PHP errors, for a failing test's message.
  public var log: String {
    (try? String(contentsOfFile: dataFolder + "/server.log", encoding: .utf8)) ?? ""
  }

  /// Stops the server, keeping its data, and waits until it is gone (its port then refuses
  /// connections); throws when it is still there after 30 s.
  public func pause() throws {
    kill(pid, SIGTERM)
    let deadline = Date().addingTimeInterval(30)
    // Not our child (serve's): wait until it is gone, or a zombie nobody has reaped yet.
    while let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      !stat.contains(") Z ")
    {
      guard Date() < deadline else {
        throw TestToolError(description: "oPodSync (pid \(pid)) still runs 30 s after SIGTERM")
      }
      usleep(10_000)
    }
  }

  /// Starts it again on the same port with the same data: the same server, back.
  public func resume() throws {
    let port = String(url.split(separator: ":").last ?? "0")
    pid = try Self.start(serve, dataFolder, port: port).1
  }

  public func stop() {
    kill(pid, SIGTERM)
    try? FileManager.default.removeItem(atPath: dataFolder)
  }
}
