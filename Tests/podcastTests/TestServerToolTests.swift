import Foundation
import XCTest

/// `make demo` and `make bench` stand on `podcast-testserver`: its generated fixtures must be
/// valid and its `serve` must announce itself, serve, and exit cleanly on SIGTERM.
final class TestServerToolTests: XCTestCase {
  private var scratch: URL!

  override func setUpWithError() throws {
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try FileManager.default.removeItem(at: scratch)
  }

  /// The built tool sits next to the test bundle (.build/<config>/).
  private var tool: URL {
    Bundle.main.bundleURL.appendingPathComponent("podcast-testserver")
  }

  private func run(_ executable: URL, _ arguments: [String]) throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  func testGeneratedAudioIsAWAVOfTheAskedLength() throws {
    let wav = scratch.appendingPathComponent("episode-1.wav")
    XCTAssertEqual(
      try run(tool, ["generate-audio", "--out", wav.path, "--seconds", "3"]).status, 0)
    let data = try Data(contentsOf: wav)
    XCTAssertEqual(data.count, 44 + 3 * 8000)
    XCTAssertEqual(String(decoding: data.prefix(4), as: UTF8.self), "RIFF")
    XCTAssertEqual(String(decoding: data[8..<16], as: UTF8.self), "WAVEfmt ")
  }

  func testGeneratedFeedIsWellFormedWithEveryEpisode() throws {
    let feed = scratch.appendingPathComponent("feed.xml")
    XCTAssertEqual(
      try run(tool, ["generate-feed", "--episodes", "40", "--out", feed.path]).status, 0)
    let text = try String(contentsOf: feed, encoding: .utf8)
    XCTAssertEqual(text.components(separatedBy: "<item>").count - 1, 40)
    XCTAssertTrue(text.contains("<enclosure url=\"{{base}}/audio/episode-40.mp3\""))
    let lint = try run(URL(fileURLWithPath: "/usr/bin/xmllint"), ["--noout", feed.path])
    XCTAssertEqual(lint.status, 0, lint.output)
  }

  func testBadOptionIsAClearError() throws {
    let result = try run(tool, ["generate-audio", "--out", "x.wav", "--seconds", "lots"])
    XCTAssertEqual(result.status, 2)
    XCTAssertTrue(result.output.contains("--seconds must be a whole number"), result.output)
  }

  func testServeAnnouncesURLServesMountsAndStopsOnSIGTERM() throws {
    let audio = scratch.appendingPathComponent("audio")
    try FileManager.default.createDirectory(at: audio, withIntermediateDirectories: true)
    try Data("<url>{{base}}/audio/a.wav</url>".utf8).write(
      to: scratch.appendingPathComponent("feed.xml"))
    try Data("RIFF".utf8).write(to: audio.appendingPathComponent("a.wav"))

    let server = Process()
    server.executableURL = tool
    server.arguments = ["serve", "--root", scratch.path, "--mount", "/audio=\(audio.path)"]
    let announcements = Pipe()
    server.standardOutput = announcements
    server.standardError = Pipe()
    try server.run()
    defer { if server.isRunning { server.terminate() } }

    let firstLine = String(
      decoding: announcements.fileHandleForReading.availableData, as: UTF8.self
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertTrue(firstLine.hasPrefix("http://127.0.0.1:"), firstLine)

    let curl = URL(fileURLWithPath: "/usr/bin/curl")
    XCTAssertEqual(
      try run(curl, ["-s", firstLine + "/feed.xml"]).output, "<url>\(firstLine)/audio/a.wav</url>")
    XCTAssertEqual(try run(curl, ["-s", firstLine + "/audio/a.wav"]).output, "RIFF")

    server.terminate()  // SIGTERM
    server.waitUntilExit()
    XCTAssertEqual(server.terminationReason, .exit)
    XCTAssertEqual(server.terminationStatus, 0)
  }
}
