import Foundation

/// Runs the built `podcast` executable (.build/debug/podcast) and captures what it printed.
struct PodcastBinary {
  struct Result {
    var stdout: String
    var stderr: String
    var status: Int32
  }

  static var url: URL {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
      .appendingPathComponent(".build/debug/podcast")
  }

  /// `environment` is added to a minimal one (PATH, HOME), so the user's own
  /// PODCAST_LIBRARY never leaks into a test.
  static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    var base = ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path]
    base.merge(environment) { _, new in new }
    process.environment = base
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes before waiting, so a chatty child cannot fill one and block.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self),
      status: process.terminationStatus)
  }
}
