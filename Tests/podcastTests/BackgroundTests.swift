import Foundation
import LoopbackServer
import XCTest

/// `--background` hands the work to a detached process; `--exec` runs after each file.
final class BackgroundTests: XCTestCase {
  func testBackgroundDownloadFinishesAfterTheCommandReturnsAndRunsExec() throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    let episodes = FeedFixture.episodes(2, size: 300_000)
    // Both bodies are held mid-way until the test has looked (the hold is not a stall for
    // the background process to give up on).
    let feed = FeedFixture.serve(episodes, title: "Later", on: server) {
      $0.stalling(after: 100_000, seconds: nil, times: 1)
    }
    var podcast = try PodcastBinary()
    podcast.environment["PODCAST_TIMEOUT"] = "120"
    let marker = podcast.library + "/exec-ran"

    let started = try podcast.run([
      "download", feed, "1-2", "--background", "--exec", "printf '%s\\n' {file} >> \(marker)",
    ])

    XCTAssertEqual(started.status, 0, started.stderr)
    XCTAssertTrue(started.stdout.contains("in the background"), started.stdout)
    XCTAssertTrue(
      server.wait { episodes.allSatisfy { server.bodyBytesSent(for: $0.path) == 100_000 } },
      "the background process did not start both downloads")
    XCTAssertTrue(podcast.episodeFiles().isEmpty, "the command returns before the downloads finish")
    server.releaseStalls()
    var states: [String] = []
    let finished = DownloadScenario.waitUntil(seconds: 60) {
      let status = try? podcast.run(["status", "--json"])
      states = ((try? status?.json() as? [[String: Any]]) ?? []).compactMap {
        $0["state"] as? String
      }
      return states == ["done", "done"] && FileManager.default.fileExists(atPath: marker)
    }
    XCTAssertTrue(finished, "the background downloads did not finish: \(states)")
    XCTAssertEqual(states, ["done", "done"])
    let files = podcast.episodeFiles()
    XCTAssertEqual(files.count, 2)
    for episode in episodes {
      let file = try XCTUnwrap(files.first { $0.hasSuffix("\(episode.title).mp3") })
      XCTAssertEqual(
        FileManager.default.contents(atPath: podcast.episodesDirectory + "/" + file), episode.body)
    }
    // The second --exec may still be appending after its file is in place.
    let execLines = {
      ((try? String(contentsOfFile: marker, encoding: .utf8)) ?? "").split(separator: "\n")
    }
    XCTAssertTrue(DownloadScenario.waitUntil(seconds: 10) { execLines().count >= 2 })
    let ran = (try? String(contentsOfFile: marker, encoding: .utf8)) ?? ""
    XCTAssertEqual(ran.split(separator: "\n").count, 2, ran)
    XCTAssertTrue(ran.contains(podcast.episodesDirectory + "/Later/2024-05-10 Episode 2.mp3"), ran)
  }

  func testExecPlaceholdersAreShellQuoted() throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    var episodes = FeedFixture.episodes(1, size: 1_000)
    episodes[0].title = "It's $HOME; rm -rf `x`"
    let feed = FeedFixture.serve(episodes, title: "Quotes", on: server)
    let podcast = try PodcastBinary()
    let marker = podcast.library + "/titles"
    let result = try podcast.run(["download", feed, "--exec", "printf '%s' {title} > \(marker)"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try String(contentsOfFile: marker, encoding: .utf8), "It's $HOME; rm -rf `x`")
  }

  /// The pid `--background` prints is the process doing the work (in a session of its own),
  /// not a wrapper that has already exited; with `--json` it comes as JSON, for `download`
  /// and `sync` alike.
  func testBackgroundPrintsTheWorkersPidAndSpeaksJSONWhenAsked() throws {
    let server = try LoopbackServer()
    defer { server.stop() }
    var podcast = try PodcastBinary()
    podcast.environment["PODCAST_TIMEOUT"] = "120"
    func held(_ name: String) -> (feed: String, episode: FakeEpisode) {
      let episodes = FeedFixture.episodes(1, size: 200_000, prefix: name)
      let feed = FeedFixture.serve(episodes, title: name, at: "/\(name).xml", on: server) {
        $0.stalling(after: 50_000, seconds: nil, times: 1)
      }
      return (feed, episodes[0])
    }
    let downloaded = held("Downloaded")
    let synced = held("Synced")
    XCTAssertEqual(try podcast.run(["subscribe", synced.feed, "--name", "synced"]).status, 0)

    for (arguments, episode) in [
      (["download", downloaded.feed, "1"], downloaded.episode), (["sync"], synced.episode),
    ] {
      let started = try podcast.run(arguments + ["--background", "--json"])
      XCTAssertEqual(started.status, 0, started.stderr)
      let document = try XCTUnwrap(try started.json() as? [String: Any], started.stdout)
      let pid = try XCTUnwrap(document["pid"] as? Int, started.stdout)
      XCTAssertEqual(document["log"] as? String, podcast.library + "/.podcast/background.log")
      XCTAssertTrue(
        server.wait { server.bodyBytesSent(for: episode.path) >= 50_000 },
        "\(arguments): the worker did not start the download")
      // The worker, alive while its download is held: podcast itself, leading its own session.
      let command = try String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
        .split(separator: "\0").map(String.init)
      XCTAssertEqual(
        URL(fileURLWithPath: "/proc/\(pid)/exe").resolvingSymlinksInPath().path,
        PodcastBinary.url.resolvingSymlinksInPath().path, "\(command)")
      XCTAssertEqual(Array(command.dropFirst()), arguments + ["--json"])
      let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
      let afterName = try XCTUnwrap(stat.range(of: ") "), stat).upperBound
      XCTAssertEqual(Int(stat[afterName...].split(separator: " ")[3]), pid, "its own session")
      server.releaseStalls()
      XCTAssertTrue(
        DownloadScenario.waitUntil(seconds: 60) { kill(pid_t(pid), 0) != 0 },
        "\(arguments): the worker did not end")
    }
    XCTAssertEqual(podcast.episodeFiles().count, 2, "\(podcast.episodeFiles())")
  }
}
