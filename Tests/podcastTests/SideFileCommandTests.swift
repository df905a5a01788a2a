import Foundation
import LoopbackServer
import XCTest

/// Transcripts and chapters the feed links (`<podcast:transcript>`, `<podcast:chapters>`) land
/// beside the episode file, named after it, only ever complete.
final class SideFileCommandTests: XCTestCase {
  private var server: LoopbackServer!
  private var binary: PodcastBinary!
  private let vtt = Data("WEBVTT\n\n00:00.000 --> 00:02.000\nA tone.\n".utf8)
  private let srt = Data("1\n00:00:00,000 --> 00:00:02,000\nA tone.\n".utf8)
  private let chapters = Data(
    #"{"version":"1.2.0","chapters":[{"startTime":0,"title":"Tone"}]}"#.utf8)
  private let feedPath = "/show/feed.xml"

  override func setUpWithError() throws {
    server = try LoopbackServer()
    binary = try PodcastBinary()
    server.set("/show/1.vtt", .data(vtt, contentType: "text/vtt"))
    server.set("/show/1.srt", .data(srt, contentType: "application/x-subrip"))
    server.set("/show/1.chapters", .data(chapters, contentType: "application/json+chapters"))
    serve(transcripts: ["/show/1.vtt": "text/vtt", "/show/1.srt": "application/x-subrip"])
  }

  override func tearDownWithError() throws {
    server.stop()
    try? FileManager.default.removeItem(atPath: binary.library)
  }

  private let episode = FakeEpisode(
    title: "Tones", guid: "tones-1", published: Date(timeIntervalSince1970: 1_715_335_200),
    path: "/show/1.mp3", body: FeedFixture.bytes(30_000, seed: 9))

  /// One episode whose item links `transcripts` (path: type, VTT first) and the chapters.
  private func serve(
    transcripts: KeyValuePairs<String, String>, chaptersPath: String = "/show/1.chapters"
  ) {
    let links = transcripts.map { path, type in
      "<podcast:transcript url=\"\(server.url(path))\" type=\"\(type)\" language=\"en\"/>"
    }
    var rss = FeedFixture.rss(title: "Side Show", episodes: [episode], base: server.baseURL)
    rss = rss.replacingOccurrences(
      of: "<itunes:duration>",
      with: links.joined()
        + "<podcast:chapters url=\"\(server.url(chaptersPath))\" type=\"application/json+chapters\"/>"
        + "<itunes:duration>")
    rss = rss.replacingOccurrences(
      of: "<rss version=\"2.0\"",
      with: "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"")
    server.set(feedPath, .text(rss, contentType: "application/rss+xml"))
    server.set(episode.path, .data(episode.body, contentType: "audio/mpeg"))
  }

  private var folder: String { binary.episodesDirectory + "/Side Show" }
  private var stem: String { folder + "/2024-05-10 Tones" }

  private func download(_ arguments: String...) throws -> [String] {
    let result = try binary.run(["download", server.url(feedPath), "--json"] + arguments)
    XCTAssertEqual(result.status, 0, result.stderr)
    let document = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let items = try XCTUnwrap(document["downloaded"] as? [[String: Any]], result.stdout)
    return try XCTUnwrap(items.first?["sideFiles"] as? [String], result.stdout)
  }

  private var folderFiles: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  func testTheFirstTranscriptAndTheChaptersLandBesideTheEpisode() throws {
    let written = try download()

    XCTAssertEqual(written, [stem + ".vtt", stem + ".chapters.json"])
    XCTAssertEqual(FileManager.default.contents(atPath: stem + ".vtt"), vtt)
    XCTAssertEqual(FileManager.default.contents(atPath: stem + ".chapters.json"), chapters)
    XCTAssertEqual(
      folderFiles,
      [
        "2024-05-10 Tones.chapters.json", "2024-05-10 Tones.mp3", "2024-05-10 Tones.vtt",
        "Side Show.m3u8",
      ], "only the first transcript, and no temporary file")
    XCTAssertEqual(server.requests(for: "/show/1.srt").count, 0)
  }

  func testAllTranscriptsKeepsEveryTranscriptTheFeedLists() throws {
    let written = try download("--all-transcripts")

    XCTAssertEqual(written, [stem + ".vtt", stem + ".srt", stem + ".chapters.json"])
    XCTAssertEqual(FileManager.default.contents(atPath: stem + ".srt"), srt)
  }

  func testNoTranscriptsAndNoChaptersFetchNeither() throws {
    let written = try download("--no-transcripts", "--no-chapters")

    XCTAssertEqual(written, [])
    XCTAssertEqual(folderFiles, ["2024-05-10 Tones.mp3", "Side Show.m3u8"])
    XCTAssertEqual(server.requests(for: "/show/1.vtt").count, 0)
    XCTAssertEqual(server.requests(for: "/show/1.chapters").count, 0)
  }

  /// A transcript cut off mid-body or missing is never left half-written beside the audio,
  /// and costs the episode nothing.
  func testABrokenTranscriptOrMissingChaptersLeaveNothingBehind() throws {
    server.set("/show/1.vtt", .data(vtt, contentType: "text/vtt").dropping(after: 10))
    serve(transcripts: ["/show/1.vtt": "text/vtt"], chaptersPath: "/show/missing.json")

    let written = try download()

    XCTAssertEqual(written, [])
    XCTAssertEqual(folderFiles, ["2024-05-10 Tones.mp3", "Side Show.m3u8"])
  }

  /// Pruning an episode (and `unsubscribe --delete-files`) takes its transcript and chapters
  /// with it, and the folder's picture once no episode is left.
  func testSideFilesGoWithTheirEpisode() throws {
    let png = try AudioTool.png()
    server.set("/art.png", .data(png, contentType: "image/png"))
    let newer = FakeEpisode(
      title: "More Tones", guid: "tones-2", published: Date(timeIntervalSince1970: 1_715_421_600),
      path: "/show/2.mp3", body: FeedFixture.bytes(30_000, seed: 10))
    func publish(_ episodes: [FakeEpisode]) {
      let items = episodes.map { episode -> String in
        let number = episode.guid.split(separator: "-").last ?? ""
        server.set("/show/\(number).vtt", .data(vtt, contentType: "text/vtt"))
        server.set(episode.path, .data(episode.body, contentType: "audio/mpeg"))
        return
          "<podcast:transcript url=\"\(server.url("/show/\(number).vtt"))\" type=\"text/vtt\"/>"
      }
      var rss = FeedFixture.rss(
        title: "Side Show", episodes: episodes, base: server.baseURL,
        channelExtra: "<itunes:image href=\"\(server.url("/art.png"))\"/>")
      for (episode, link) in zip(episodes, items) {
        rss = rss.replacingOccurrences(
          of: "<guid isPermaLink=\"false\">\(episode.guid)</guid>",
          with: "<guid isPermaLink=\"false\">\(episode.guid)</guid>" + link)
      }
      rss = rss.replacingOccurrences(
        of: "<rss version=\"2.0\"",
        with: "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"")
      server.set(feedPath, .text(rss, contentType: "application/rss+xml"))
    }
    publish([episode])
    let subscribed = try binary.run([
      "subscribe", server.url(feedPath), "--name", "side", "--keep", "1",
    ])
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    XCTAssertEqual(try binary.run(["sync"]).status, 0)
    XCTAssertEqual(
      folderFiles,
      ["2024-05-10 Tones.mp3", "2024-05-10 Tones.vtt", "Side Show.m3u8", "cover.png"])

    publish([newer, episode])
    let synced = try binary.run(["sync"])
    XCTAssertEqual(synced.status, 0, synced.stderr)

    XCTAssertEqual(
      folderFiles,
      ["2024-05-11 More Tones.mp3", "2024-05-11 More Tones.vtt", "Side Show.m3u8", "cover.png"],
      "the pruned episode's transcript went with it")
    let gone = try binary.run(["unsubscribe", "side", "--delete-files"])
    XCTAssertEqual(gone.status, 0, gone.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "nothing is left behind")
  }
}
