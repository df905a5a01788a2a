import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Whatever happens, no episode is lost and nothing under Episodes is ever incomplete: 20
/// downloads are killed with SIGKILL at random moments, again and again, and each time the
/// rerun picks up where the last one died. `make soak` runs many more rounds
/// (PODCAST_SOAK_ROUNDS). A moment is a random number of body bytes the server has sent in
/// the round (seeded, so a failure repeats), not a time: a busy machine moves no kill.
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
    var generator = SeededGenerator(for: name)

    var midBodyKills = 0
    var cycles = 0
    for round in 1...rounds {
      let process = try podcast.start(["download", feed, "--all", "--concurrency", "6"])
      killAfter(
        Int.random(in: 0...600_000, using: &generator), bytesFrom: server, process, round: round)
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

  /// The sync variant: each round subscribes a fresh library with `--keep 2`, lets a first
  /// sync take the newest episode, publishes four more and kills the next sync at a random
  /// moment. After a rerun, every finished episode is recorded: exactly the newest two files
  /// remain (the others pruned, including those the killed run finished), and
  /// `unsubscribe --delete-files` leaves nothing behind.
  func testSyncsKilledAtRandomMomentsRecordPruneAndDeleteEveryFinishedEpisode() throws {
    let rounds = ProcessInfo.processInfo.environment["PODCAST_SOAK_ROUNDS"].flatMap(Int.init) ?? 10
    let server = try LoopbackServer()
    defer { server.stop() }
    let show = Show("soak", episodes: 1, size: 120_000, on: server)
    show.enclosure = { $0.trickling(bytesPerSecond: 400_000) }
    show.serve()
    var generator = SeededGenerator(for: name)
    var midBodyKills = 0
    for round in 1...rounds {
      let podcast = try PodcastBinary()
      defer { try? FileManager.default.removeItem(atPath: podcast.library) }
      let subscribed = try podcast.run(["subscribe", show.feedURL, "--name", "soak", "--keep", "2"])
      XCTAssertEqual(subscribed.status, 0, "round \(round): \(subscribed.stderr)")
      XCTAssertEqual(try podcast.run(["sync"], timeout: 60).status, 0, "round \(round)")
      show.publish(4)

      let process = try podcast.start(["sync"])
      killAfter(
        Int.random(in: 0...500_000, using: &generator), bytesFrom: server, process, round: round)
      let partials = podcast.partialFiles().compactMap {
        try? FileManager.default.attributesOfItem(
          atPath: podcast.library + "/.podcast/partial/" + $0)[.size] as? Int
      }
      if partials.contains(where: { $0 > 0 }) { midBodyKills += 1 }
      try assertSyncFilesAreComplete(podcast, show: show, round: round)

      let rerun = try podcast.run(["sync"], timeout: 120)
      XCTAssertEqual(rerun.status, 0, "round \(round): \(rerun.stderr)")
      let kept = podcast.episodeFiles().compactMap {
        FileManager.default.contents(atPath: podcast.episodesDirectory + "/" + $0)
      }
      XCTAssertEqual(
        Set(kept), Set(show.episodes.prefix(2).map(\.body)),
        "round \(round): not exactly the newest two: \(podcast.episodeFiles())")

      let gone = try podcast.run(["unsubscribe", "soak", "--delete-files"])
      XCTAssertEqual(gone.status, 0, "round \(round): \(gone.stderr)")
      XCTAssertEqual(podcast.episodeFiles(), [], "round \(round): files left after unsubscribe")
    }
    print("crash-resume (sync): \(rounds) kills, \(midBodyKills) mid-body")
  }

  /// SIGKILLs `process` once the server has sent `bytes` more body bytes, or finds it done.
  private func killAfter(
    _ bytes: Int, bytesFrom server: LoopbackServer, _ process: RunningPodcast, round: Int
  ) {
    let before = server.bodyBytesSent
    let reached = DownloadScenario.waitUntil(seconds: 120) {
      server.bodyBytesSent - before >= bytes || !process.isRunning
    }
    XCTAssertTrue(reached, "round \(round): neither \(bytes) bytes sent nor the run over")
    process.signal(SIGKILL)
    _ = try? process.wait(timeout: 10)
  }

  private func assertSyncFilesAreComplete(_ podcast: PodcastBinary, show: Show, round: Int) throws {
    for path in podcast.episodeFiles() {
      let episode = try XCTUnwrap(
        show.episodes.first { path.hasSuffix(" \($0.title).mp3") },
        "round \(round): unexpected file \(path)")
      XCTAssertEqual(
        FileManager.default.contents(atPath: podcast.episodesDirectory + "/" + path),
        episode.body, "round \(round): \(path) is incomplete or corrupt")
    }
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
