import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `Scripts/account-proxy.py` in front of a sync server: every request and answer recorded (the
/// password masked), and the client killed at a chosen request, before the server sees it or
/// after it answered (see the script). Runs in the phone's python.
public final class AccountServerProxy {
  /// `http://127.0.0.1:PORT`: where the client is pointed.
  public let url: String
  public let controlFolder: String
  private let process = Process()

  public init(upstream: String, masking password: String) throws {
    controlFolder = NSTemporaryDirectory() + "podcast-account-proxy-" + UUID().uuidString
    try FileManager.default.createDirectory(
      atPath: controlFolder, withIntermediateDirectories: true)
    process.executableURL = URL(fileURLWithPath: try AccountPhone.python())
    process.arguments = [AccountPhone.scripts + "/account-proxy.py", upstream, controlFolder]
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["SYNC_PROXY_MASK": password]) { $1 }
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    // The first line is the address, printed once it listens.
    var line = Data()
    while true {
      let byte = out.fileHandleForReading.readData(ofLength: 1)
      if byte.isEmpty || byte == Data("\n".utf8) { break }
      line.append(byte)
    }
    url = String(decoding: line, as: UTF8.self)
    guard url.hasPrefix("http://127.0.0.1:") else {
      throw TestToolError(description: "account-proxy.py printed \(url)")
    }
  }

  /// Kill the next client at its `request`th request from now: `afterAnswer` once the server
  /// answered it, else as it arrives. Then `started(pid:)` names the client.
  public func plan(killAt request: Int, afterAnswer: Bool) throws {
    try? FileManager.default.removeItem(atPath: controlFolder + "/pid")
    try? FileManager.default.removeItem(atPath: controlFolder + "/killed")
    try "\(request) \(afterAnswer ? "after" : "before")\n".write(
      toFile: controlFolder + "/plan", atomically: true, encoding: .utf8)
  }

  public func started(pid: Int32) throws {
    try "\(pid)\n".write(toFile: controlFolder + "/pid", atomically: true, encoding: .utf8)
  }

  /// Forgets a plan no request met.
  public func cancelPlan() {
    try? FileManager.default.removeItem(atPath: controlFolder + "/plan")
  }

  /// Whether the plan's kill was made.
  public var killed: Bool {
    FileManager.default.fileExists(atPath: controlFolder + "/killed")
  }

  /// Every request and answer so far.
  public var exchangeLog: String {
    (try? String(contentsOfFile: controlFolder + "/exchange.log", encoding: .utf8)) ?? ""
  }

  public func clearLog() {
    try? FileManager.default.removeItem(atPath: controlFolder + "/exchange.log")
  }

  public func stop() {
    process.terminate()
    process.waitUntilExit()
    try? FileManager.default.removeItem(atPath: controlFolder)
  }
}
