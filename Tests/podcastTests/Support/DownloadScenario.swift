import Foundation
import LoopbackServer
import XCTest

/// One end-to-end download setting: a loopback server serving a feed and its enclosures, and a
/// throwaway library to run `podcast download` in. Its checks compare every file under
/// Episodes byte for byte with what the server served.
final class DownloadScenario {
  let server: LoopbackServer
  var binary: PodcastBinary
  let episodes: [FakeEpisode]
  let title: String
  let feedURL: String

  /// `episodes` newest first, as `FeedFixture.episodes` makes them; `enclosure` adds faults
  /// to every enclosure route.
  init(
    _ episodes: [FakeEpisode], title: String = "Test Show", environment: [String: String] = [:],
    enclosure: (Route) -> Route = { $0 }
  ) throws {
    server = try LoopbackServer()
    binary = try PodcastBinary()
    binary.environment.merge(environment) { _, new in new }
    self.episodes = episodes
    self.title = title
    feedURL = FeedFixture.serve(episodes, title: title, on: server, enclosure: enclosure)
  }

  deinit {
    server.stop()
    // The unwritable-directory test leaves a read-only folder behind; give it back first.
    chmod(binary.episodesDirectory, 0o755)
    try? FileManager.default.removeItem(atPath: binary.library)
  }

  /// `podcast download FEED arguments...`, to completion.
  func download(_ arguments: String..., timeout: TimeInterval = 30) throws -> PodcastBinary.Result {
    try binary.run(["download", feedURL] + arguments, timeout: timeout)
  }

  /// `podcast download FEED arguments...`, left running.
  func startDownload(_ arguments: String...) throws -> RunningPodcast {
    try binary.start(["download", feedURL] + arguments)
  }

  /// The episode `podcast episodes` lists at `index` (1 is the newest).
  func episode(_ index: Int) -> FakeEpisode { episodes[index - 1] }

  /// Puts a new route on an episode's enclosure path (for faults in one run only).
  func serve(_ episode: FakeEpisode, _ route: Route) {
    server.set(episode.path, route)
  }

  /// The plain, well-behaved route FeedFixture serves for `episode`.
  static func plainRoute(_ episode: FakeEpisode) -> Route {
    .data(episode.body, contentType: episode.type).withETag("\"\(episode.guid)\"")
  }

  /// The GETs the server saw for an episode's enclosure.
  func gets(_ episode: FakeEpisode) -> [RecordedRequest] {
    server.requests(for: episode.path).filter { $0.method == "GET" }
  }

  /// The `Range` headers sent for an episode's enclosure, in order (nil: a request without one).
  func ranges(_ episode: FakeEpisode) -> [String?] {
    gets(episode).map { $0.header("range") }
  }

  var showDirectory: String { binary.episodesDirectory + "/" + title }

  /// The default name: `<YYYY-MM-DD> <title>.mp3` inside the podcast's folder.
  func defaultPath(_ episode: FakeEpisode) -> String {
    title + "/" + DownloadScenario.day(episode.published) + " " + episode.title + ".mp3"
  }

  static func day(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: date)
  }

  /// Everything under Episodes is exactly `expected`: one file per episode, at its default
  /// name, byte for byte what the server served, and nothing else.
  func assertEpisodesHold(
    _ expected: [FakeEpisode], file: StaticString = #filePath, line: UInt = #line
  ) {
    let onDisk = binary.episodeFiles()
    XCTAssertEqual(
      onDisk, expected.map(defaultPath).sorted(), "files under Episodes", file: file, line: line)
    for episode in expected {
      assertFile(
        binary.episodesDirectory + "/" + defaultPath(episode), equals: episode.body, file: file,
        line: line)
    }
  }

  /// Every file under Episodes holds exactly one expected body, and every body is there once.
  func assertEpisodesHoldBodies(
    _ expected: [FakeEpisode], file: StaticString = #filePath, line: UInt = #line
  ) {
    let contents = binary.episodeFiles().map {
      FileManager.default.contents(atPath: binary.episodesDirectory + "/" + $0) ?? Data()
    }
    XCTAssertEqual(
      contents.count, expected.count, "number of files under Episodes", file: file, line: line)
    for episode in expected {
      let copies = contents.filter { $0 == episode.body }.count
      XCTAssertEqual(
        copies, 1, "\(episode.title): files with its exact bytes", file: file, line: line)
    }
  }

  func assertNothingUnderEpisodes(file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(binary.episodeFiles(), [], "files under Episodes", file: file, line: line)
  }

  func assertFile(
    _ path: String, equals body: Data, file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let contents = FileManager.default.contents(atPath: path) else {
      return XCTFail("\(path) does not exist", file: file, line: line)
    }
    XCTAssertEqual(contents.count, body.count, "\(path): size", file: file, line: line)
    XCTAssertTrue(
      contents == body, "\(path): bytes differ from what the server served", file: file, line: line)
  }

  /// Sizes of the files in `<library>/.podcast/partial/`.
  func partialSizes() -> [Int] {
    binary.partialFiles().compactMap { name in
      let path = binary.library + "/.podcast/partial/" + name
      return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }
  }

  /// Polls until `condition` holds; false when `seconds` pass first.
  static func waitUntil(seconds: TimeInterval, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      usleep(20_000)
    }
    return condition()
  }
}

extension PodcastBinary.Result {
  /// stderr's non-empty lines.
  var stderrLines: [String] {
    stderr.split(separator: "\n").map(String.init).filter {
      !$0.trimmingCharacters(in: .whitespaces).isEmpty
    }
  }

  /// stdout as the `download --json` document.
  func downloadDocument(file: StaticString = #filePath, line: UInt = #line) throws -> [String:
    [[String: Any]]]
  {
    let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
    return try XCTUnwrap(
      object as? [String: [[String: Any]]], "not a download document: \(stdout)", file: file,
      line: line)
  }
}
