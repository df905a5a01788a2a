import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `podcast` executable the way a user would, in a throwaway library.
struct PodcastBinary {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Next to the test bundle in `.build/<config>/`.
  static var url: URL {
    if let override = ProcessInfo.processInfo.environment["PODCAST_BINARY"], !override.isEmpty {
      return URL(fileURLWithPath: override)
    }
    let candidates = [
      Bundle.main.executableURL?.deletingLastPathComponent(),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle(for: Marker.self).bundleURL.deletingLastPathComponent(),
    ].compactMap { $0 }
    for directory in candidates {
      let url = directory.appendingPathComponent("podcast")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../.build/debug/podcast").standardizedFileURL
  }

  private final class Marker {}

  let library: String
  var environment: [String: String]

  /// A fresh, empty library in a temporary directory.
  init(file: StaticString = #filePath) throws {
    library = NSTemporaryDirectory() + "podcast-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
    environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "HOME": library,
      "PODCAST_LIBRARY": library,
      "PODCAST_ITUNES_URL": "http://127.0.0.1:9",
      "PODCAST_TIMEOUT": "5",
      "NO_COLOR": "1",
      "LANG": "C.UTF-8",
    ]
  }

  var episodesDirectory: String { library + "/Episodes" }

  /// Runs to completion (or kills it after `timeout` seconds and fails the test).
  @discardableResult
  func run(_ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 60) throws -> Result
  {
    let process = try start(arguments, stdin: stdin)
    return try process.wait(timeout: timeout)
  }

  func start(_ arguments: [String], stdin: String? = nil) throws -> RunningPodcast {
    try RunningPodcast(
      executable: Self.url, arguments: arguments, environment: environment, stdin: stdin)
  }

  /// Every episode file under Episodes, relative to it, sorted: what was downloaded, without
  /// the files that go with it (see `sideFiles()`).
  func episodeFiles() -> [String] {
    let files = allFiles()
    return files.filter { !Self.isSideFile($0, among: files) }
  }

  /// The files that go with the episodes, relative to Episodes, sorted: each podcast folder's
  /// playlist (`Show/Show.m3u8`) and cover, each episode's transcripts and chapters.
  func sideFiles() -> [String] {
    let files = allFiles()
    return files.filter { Self.isSideFile($0, among: files) }
  }

  /// Every file under Episodes, relative to it, sorted.
  func allFiles() -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: episodesDirectory)
    var files: [String] = []
    while let path = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(
        atPath: episodesDirectory + "/" + path, isDirectory: &isDirectory)
      if exists && !isDirectory.boolValue { files.append(path) }
    }
    return files.sorted()
  }

  private static let transcriptExtensions: Set<String> = ["vtt", "srt", "json", "html", "txt"]

  /// `Show/Show.m3u8`, `Show/feed.xml`, `feeds.opml`, `…/cover.png`, `X.chapters.json`, and `X.vtt` / `X.en.vtt` beside `X.mp3`.
  private static func isSideFile(_ path: String, among files: [String]) -> Bool {
    let components = path.split(separator: "/").map(String.init)
    let name = components.last ?? path
    if name == "cover.jpg" || name == "cover.png" || name.hasSuffix(".chapters.json") {
      return true
    }
    if components.count == 2 && name == components[0] + ".m3u8" { return true }
    if components.count == 2 && name == "feed.xml" { return true }
    if components.count == 1 && name == "feeds.opml" { return true }
    let ext = (name as NSString).pathExtension
    guard transcriptExtensions.contains(ext) else { return false }
    let stem = (path as NSString).deletingPathExtension
    let stems = [stem, (stem as NSString).deletingPathExtension]
    return files.contains { other in
      other != path
        && !transcriptExtensions.contains((other as NSString).pathExtension)
        && stems.contains((other as NSString).deletingPathExtension)
    }
  }

  func partialFiles() -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: library + "/.podcast/partial")) ?? []
  }
}

/// A `podcast` process in flight, for tests that interrupt or kill it.
final class RunningPodcast: @unchecked Sendable {
  let process = Process()
  private let out = Pipe()
  private let err = Pipe()
  private var outData = Data()
  private var errData = Data()
  private let group = DispatchGroup()

  init(executable: URL, arguments: [String], environment: [String: String], stdin: String?) throws {
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    drain(out) { self.outData = $0 }
    drain(err) { self.errData = $0 }
  }

  private func drain(_ pipe: Pipe, into store: @escaping @Sendable (Data) -> Void) {
    group.enter()
    let handle = pipe.fileHandleForReading
    Thread.detachNewThread { [group] in
      store(handle.readDataToEndOfFile())
      group.leave()
    }
  }

  var pid: Int32 { process.processIdentifier }

  func signal(_ number: Int32) {
    kill(process.processIdentifier, number)
  }

  func wait(timeout: TimeInterval = 60) throws -> PodcastBinary.Result {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      _ = group.wait(timeout: .now() + 5)
      throw TimeoutError(seconds: timeout, stderr: String(decoding: errData, as: UTF8.self))
    }
    process.waitUntilExit()
    _ = group.wait(timeout: .now() + 5)
    return PodcastBinary.Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  struct TimeoutError: Error, CustomStringConvertible {
    var seconds: TimeInterval
    var stderr: String
    var description: String { "podcast did not finish within \(seconds) s; stderr: \(stderr)" }
  }
}

extension PodcastBinary.Result {
  /// The stdout parsed as JSON (fails the test when it is not).
  func json(file: StaticString = #filePath, line: UInt = #line) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
  }

  /// The `episodes` array of `episodes --json` output (fails the test when there is none).
  func listedEpisodes(file: StaticString = #filePath, line: UInt = #line) throws
    -> [[String: Any]]
  {
    try XCTUnwrap(
      (try json() as? [String: Any])?["episodes"] as? [[String: Any]], file: file, line: line)
  }
}

extension PodcastBinary {
  /// One run in a fresh throwaway library, with `environment` added.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60
  ) throws -> Result {
    var binary = try PodcastBinary()
    binary.environment.merge(environment) { _, new in new }
    return try binary.run(arguments, timeout: timeout)
  }
}

extension PodcastBinary.Result {
  var exitCode: Int32 { status }
}
