import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Whatever happens, no episode is lost and nothing under Episodes is ever incomplete: 20
/// downloads are killed with SIGKILL at random moments, again and again, and each time the
/// rerun picks up where the last one died. `make soak` runs many more rounds
/// (PODCAST_SOAK_ROUNDS).
final class CrashResumeTests: XCTestCase {
  private var rounds: Int {
    ProcessInfo.processInfo.environment["PODCAST_SOAK_ROUNDS"].flatMap(Int.init) ?? 20
  }

  func testDownloadsKilledAtRandomMomentsFinishIntactWhenRerun() throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let episodes = FeedFixture.episodes(20, size: 120_000)
    let bodies = Dictionary(uniqueKeysWithValues: episodes.map { ("\($0.title).mp3", $0.body) })
    // Slow enough that a kill lands mid-body; each server thread trickles on its own.
    let feed = FeedFixture.serve(episodes, title: "Crash Test", on: server) {
      $0.trickling(bytesPerSecond: 400_000)
    }
    let podcast = try PodcastBinary()
    var generator = SystemRandomNumberGenerator()

    var midBodyKills = 0
    var cycles = 0
    for round in 1...rounds {
      let process = try podcast.start(["download", feed, "--all", "--concurrency", "6"])
      usleep(UInt32.random(in: 50_000...400_000, using: &generator))
      process.signal(SIGKILL)
      _ = try? process.wait(timeout: 10)
      if !podcast.partialFiles().isEmpty { midBodyKills += 1 }
      try assertEveryVisibleFileIsComplete(podcast, bodies: bodies, round: round)
      let status = try podcast.run(["status", "--json"])
      XCTAssertEqual(
        status.status, 0, "round \(round): the database opens after SIGKILL: \(status.stderr)")
      if podcast.episodeFiles().count == episodes.count {
        // All done: start again from an empty library, so later rounds still kill real work.
        cycles += 1
        try FileManager.default.removeItem(atPath: podcast.library)
        try FileManager.default.createDirectory(
          atPath: podcast.library, withIntermediateDirectories: true)
      }
    }
    print("crash-resume: \(rounds) kills, \(midBodyKills) mid-body, \(cycles) libraries completed")

    let final = try podcast.run(["download", feed, "--all", "--concurrency", "6"], timeout: 120)
    XCTAssertEqual(final.status, 0, final.stderr)
    try assertEveryVisibleFileIsComplete(podcast, bodies: bodies, round: rounds + 1)
    XCTAssertEqual(podcast.episodeFiles().count, 20)
    XCTAssertEqual(podcast.partialFiles(), [], "no partial file is left once everything is done")
    let resumed = server.requests.filter { request in
      guard let range = request.headers["range"] else { return false }
      return !range.hasPrefix("bytes=0-")
    }
    XCTAssertFalse(resumed.isEmpty, "reruns resume with Range requests rather than starting over")
  }

  private func assertEveryVisibleFileIsComplete(
    _ podcast: PodcastBinary, bodies: [String: Data], round: Int, file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    for path in podcast.episodeFiles() {
      let name = String(path.split(separator: "/").last ?? "").replacingOccurrences(
        of: "2024-05-", with: "")
      let key = String(name.drop { $0 != " " }.dropFirst())
      let expected = try XCTUnwrap(
        bodies[key], "round \(round): unexpected file \(path)", file: file, line: line)
      let actual = FileManager.default.contents(atPath: podcast.episodesDirectory + "/" + path)
      XCTAssertEqual(
        actual, expected, "round \(round): \(path) is incomplete or corrupt", file: file, line: line
      )
    }
  }
}
