import Foundation
import XCTest

/// Runs the built `podcast` executable the way a user would, and captures what it said.
struct PodcastBinary {
  struct Run {
    var stdout: String
    var stderr: String
    var exitCode: Int32
    var timedOut: Bool
  }

  /// The executable next to the test bundle (both live in `.build/<triple>/debug`), else the
  /// package's `.build/debug/podcast`; `PODCAST_BINARY` overrides both.
  static func url(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
    let fileManager = FileManager.default
    if let override = ProcessInfo.processInfo.environment["PODCAST_BINARY"], !override.isEmpty {
      return URL(fileURLWithPath: override)
    }
    var candidates: [URL] = []
    if let testRunner = Bundle.main.executableURL {
      candidates.append(testRunner.deletingLastPathComponent().appendingPathComponent("podcast"))
    }
    candidates.append(Bundle(for: Marker.self).bundleURL.deletingLastPathComponent().appendingPathComponent("podcast"))
    let packageRoot = URL(fileURLWithPath: "\(file)")
      .deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(packageRoot.appendingPathComponent(".build/debug/podcast"))
    let found = candidates.first { fileManager.isExecutableFile(atPath: $0.path) }
    return try XCTUnwrap(
      found, "no podcast binary; run `swift build --build-tests` first (looked in \(candidates.map(\.path)))",
      file: file, line: line)
  }

  /// Runs `podcast ARGS` with `environment` added to a minimal one (HOME points at a fresh
  /// directory so no test touches the real ~/Podcasts). Kills it after `timeout` seconds.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 30,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> Run {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let stdoutURL = scratch.appendingPathComponent("stdout")
    let stderrURL = scratch.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)

    let process = Process()
    process.executableURL = try url(file: file, line: line)
    process.arguments = arguments
    var base = ["HOME": scratch.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "NO_COLOR": "1"]
    base.merge(environment) { _, new in new }
    process.environment = base
    process.currentDirectoryURL = scratch
    // Files, not pipes: a chatty child can never block on a full pipe buffer.
    let stdoutHandle = try FileHandle(forWritingTo: stdoutURL)
    let stderrHandle = try FileHandle(forWritingTo: stderrURL)
    defer {
      try? stdoutHandle.close()
      try? stderrHandle.close()
    }
    process.standardOutput = stdoutHandle
    process.standardError = stderrHandle
    process.standardInput = FileHandle.nullDevice
    try process.run()

    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    let timedOut = process.isRunning
    if timedOut {
      process.terminate()
      process.waitUntilExit()
    }
    process.waitUntilExit()
    return Run(
      stdout: try String(contentsOf: stdoutURL, encoding: .utf8),
      stderr: try String(contentsOf: stderrURL, encoding: .utf8),
      exitCode: process.terminationStatus,
      timedOut: timedOut)
  }

  private final class Marker {}
}
