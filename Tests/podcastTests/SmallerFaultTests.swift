import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// The smaller promises: a feed's 503 is retried within the run, a bad certificate is not,
/// and nothing a feed says can drive the terminal.
final class SmallerFaultTests: LibraryTestCase {
  func testAFeedThatFailsOnceIsFetchedAgainInTheSameSync() throws {
    let show = Show("flaky", episodes: 1, on: server)
    try subscribe(show)
    let xml = FeedFixture.rss(title: "flaky show", episodes: show.episodes, base: server.baseURL)
    let before = server.requests(for: show.feedPath).count
    server.set(
      show.feedPath,
      .sequence([.status(503), .text(xml, contentType: "application/rss+xml")]))
    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertEqual(server.requests(for: show.feedPath).count - before, 2)
    assertEpisodeFiles([show.newest])
  }

  /// A self-signed certificate will be there on every try: one attempt, and the error says it
  /// is the certificate (not a later "could not connect").
  func testABadCertificateIsNotRetried() throws {
    let directory = binary.library + "/tls"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    XCTAssertEqual(
      try run(
        "/usr/bin/openssl",
        [
          "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
          "-keyout", directory + "/key.pem", "-out", directory + "/cert.pem",
        ]), 0)
    // Port 0: the server takes a free port and names it (a port picked here could be taken by
    // then); one accept: podcast's one try, so a retry finds nothing.
    let tls = Process()
    tls.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    tls.arguments = [
      "s_server", "-accept", "127.0.0.1:0", "-cert", directory + "/cert.pem", "-key",
      directory + "/key.pem", "-naccept", "1",
    ]
    let output = Pipe()
    let errors = Pipe()
    tls.standardOutput = output
    tls.standardError = errors
    tls.standardInput = Pipe()
    try tls.run()
    defer {
      tls.terminate()
      tls.waitUntilExit()
    }
    let port = try XCTUnwrap(
      Self.acceptedPort(output.fileHandleForReading),
      "openssl s_server did not listen: "
        + String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self))
    let feed = directory + "/feed.xml"
    var episode = FeedFixture.episodes(1)[0]
    episode.path = "/a.mp3"
    try FeedFixture.rss(title: "TLS", episodes: [episode], base: "https://127.0.0.1:\(port)")
      .write(toFile: feed, atomically: true, encoding: .utf8)

    let result = try podcast("download", feed)
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains("certificate"), result.stderr)
  }

  /// The port in s_server's "ACCEPT 127.0.0.1:PORT" line, or nil when it ends without one.
  private static func acceptedPort(_ handle: FileHandle) -> Int? {
    var text = ""
    while true {
      let chunk = handle.availableData
      if chunk.isEmpty { return nil }
      text += String(decoding: chunk, as: UTF8.self)
      for line in text.split(separator: "\n") where line.hasPrefix("ACCEPT ") {
        if let port = line.split(separator: ":").last.flatMap({ Int($0) }) { return port }
      }
    }
  }

  private func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Titles with a right-to-left override and escape sequences: shown as text, never obeyed.
  /// XML cannot carry ESC itself, but it can carry the C1 forms (U+009B CSI, U+009D OSC).
  func testFeedTextCannotDriveTheTerminal() throws {
    var episodes = FeedFixture.episodes(2)
    episodes[0].title = "Invoice \u{202E}fdp.exe\u{202C} \u{2066}x\u{2069}"
    episodes[1].title = "\u{9B}31mRed\u{9B}0m \u{9D}0;owned\u{9C}title"
    let scenario = try DownloadScenario(episodes, title: "Show \u{9B}2J")
    scenario.serve(episodes[1], .status(404))
    let listing = try scenario.binary.run(["episodes", scenario.feedURL])
    let download = try scenario.download("--all")
    for output in [listing.stdout, download.stdout, download.stderr] {
      XCTAssertFalse(
        output.unicodeScalars.contains { [0x1B, 0x9B, 0x9D].contains($0.value) }, output)
      XCTAssertFalse(
        output.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) }, output)
      XCTAssertFalse(
        output.unicodeScalars.contains { (0x2066...0x2069).contains($0.value) }, output)
    }
    XCTAssertTrue(listing.stdout.hasPrefix("Show by Test Author"), listing.stdout)
    XCTAssertTrue(listing.stdout.contains("Red title"), listing.stdout)
    XCTAssertTrue(listing.stdout.contains("Invoice fdp.exe x"), listing.stdout)
    XCTAssertTrue(download.stdout.contains("failed      Red title"), download.stdout)
  }
}
