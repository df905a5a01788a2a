import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Transcripts, chapters and covers are fetched like episodes: a dropped body resumes, a 5xx
/// is retried, an error page is refused, a chapters file is fetched once for the tag and the
/// side file, a kill leaves nothing half-written, and the podcast's picture follows the feed.
final class SideFileTransferTests: XCTestCase {
  private var server: LoopbackServer!
  private var binary: PodcastBinary!
  private let feedPath = "/show/feed.xml"
  private let transcriptPath = "/show/1.vtt"
  private let chaptersPath = "/show/1.chapters.json"
  private let chapters = Data(
    #"{"version":"1.2.0","chapters":[{"startTime":0,"title":"Opening"},{"startTime":1,"title":"Tone"}]}"#
      .utf8)
  /// Long enough that a cut in the middle leaves a real tail to resume.
  private let transcript = Data(
    ("WEBVTT\n\n"
      + (0..<2_000).map { "\($0).000 --> \($0).900\nLine number \($0) of the tone.\n" }.joined(
        separator: "\n")).utf8)

  override func setUpWithError() throws {
    server = try LoopbackServer()
    binary = try PodcastBinary()
  }

  override func tearDownWithError() throws {
    server.stop()
    try? FileManager.default.removeItem(atPath: binary.library)
  }

  private let episode = FakeEpisode(
    title: "Tones", guid: "tones-1", published: Date(timeIntervalSince1970: 1_715_335_200),
    path: "/show/1.mp3", body: FeedFixture.bytes(30_000, seed: 3))

  private var folder: String { binary.episodesDirectory + "/Side Show" }
  private var stem: String { folder + "/2024-05-10 Tones" }

  /// One episode with a transcript and a chapters file, the podcast's picture at `image`.
  private func serveFeed(
    episodeBody: Data? = nil, image: String? = nil, chaptersLink: Bool = false,
    etag: String? = nil
  ) {
    var extra =
      "<podcast:transcript url=\"\(server.url(transcriptPath))\" type=\"text/vtt\"/>"
    if chaptersLink {
      extra +=
        "<podcast:chapters url=\"\(server.url(chaptersPath))\" type=\"application/json+chapters\"/>"
    }
    var served = episode
    if let episodeBody { served.body = episodeBody }
    var rss = FeedFixture.rss(
      title: "Side Show", episodes: [served], base: server.baseURL,
      channelExtra: image.map { "<itunes:image href=\"\(server.url($0))\"/>" } ?? "")
    rss = rss.replacingOccurrences(of: "<itunes:duration>", with: extra + "<itunes:duration>")
    rss = rss.replacingOccurrences(
      of: "<rss version=\"2.0\"",
      with: "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"")
    let feed = Route.text(rss, contentType: "application/rss+xml")
    server.set(feedPath, etag.map { feed.withETag($0) } ?? feed)
    server.set(episode.path, .data(served.body, contentType: "audio/mpeg"))
  }

  private func downloadJSON(_ arguments: [String] = []) throws -> [String: Any] {
    let result = try binary.run(["download", server.url(feedPath), "--json"] + arguments)
    XCTAssertEqual(result.status, 0, "a side file never fails the episode: \(result.stderr)")
    return try XCTUnwrap(result.json() as? [String: Any], result.stdout)
  }

  private func downloadedItem(_ arguments: [String] = []) throws -> [String: Any] {
    let document = try downloadJSON(arguments)
    return try XCTUnwrap((document["downloaded"] as? [[String: Any]])?.first, "\(document)")
  }

  /// Every file in the episode's podcast folder, its playlist (`<podcast>.m3u8`) included: a
  /// temporary name left behind would show here.
  private var folderFiles: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  func testATranscriptCutOffMidBodyIsResumedAndEndsByteExact() throws {
    serveFeed()
    let cut = transcript.count / 2
    server.set(
      transcriptPath,
      .data(transcript, contentType: "text/vtt").withETag("\"t1\"").dropping(after: cut, times: 1))

    let item = try downloadedItem()

    XCTAssertEqual(item["sideFiles"] as? [String], [stem + ".vtt"])
    XCTAssertEqual(FileManager.default.contents(atPath: stem + ".vtt"), transcript)
    let requests = server.requests(for: transcriptPath)
    XCTAssertEqual(requests.count, 2, "one cut, one resume")
    let range = try XCTUnwrap(requests.last?.headers["range"], "the retry resumes")
    XCTAssertTrue(range.hasPrefix("bytes=") && range != "bytes=0-", range)
    XCTAssertEqual(requests.last?.headers["if-range"], "\"t1\"")
    XCTAssertEqual(folderFiles, ["2024-05-10 Tones.mp3", "2024-05-10 Tones.vtt", "Side Show.m3u8"])
  }

  func testAServerErrorOnATranscriptIsRetried() throws {
    serveFeed()
    server.set(
      transcriptPath, .sequence([.status(500), .data(transcript, contentType: "text/vtt")]))

    let item = try downloadedItem()

    XCTAssertEqual(item["sideFiles"] as? [String], [stem + ".vtt"])
    XCTAssertEqual(FileManager.default.contents(atPath: stem + ".vtt"), transcript)
    XCTAssertEqual(server.requests(for: transcriptPath).count, 2)
  }

  func testAnHTMLPageForATranscriptIsRefusedWithANote() throws {
    serveFeed()
    server.set(transcriptPath, .html("<!DOCTYPE html><html><body>Not here</body></html>"))

    let item = try downloadedItem()

    XCTAssertEqual(item["sideFiles"] as? [String], [])
    let notes = try XCTUnwrap(item["sideFileNotes"] as? [String])
    XCTAssertEqual(notes.count, 1, "\(notes)")
    XCTAssertTrue(notes.first?.contains("HTML") == true, "\(notes)")
    XCTAssertTrue(notes.first?.contains(server.url(transcriptPath)) == true, "\(notes)")
    XCTAssertEqual(
      folderFiles, ["2024-05-10 Tones.mp3", "Side Show.m3u8"], "no transcript, no temporary file")

    let text = try binary.run(["download", server.url(feedPath)])
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertTrue(text.stdout.contains("transcript not kept"), text.stdout)
  }

  /// A transcript that failed once is fetched by the next run of the same episode; one that
  /// is there is not fetched again.
  func testAnAlreadyDownloadedEpisodeGetsOnlyItsMissingSideFiles() throws {
    serveFeed(chaptersLink: true)
    server.set(transcriptPath, .status(404))
    server.set(chaptersPath, .data(chapters, contentType: "application/json+chapters"))
    _ = try downloadedItem()
    XCTAssertEqual(
      folderFiles, ["2024-05-10 Tones.chapters.json", "2024-05-10 Tones.mp3", "Side Show.m3u8"])

    server.set(transcriptPath, .data(transcript, contentType: "text/vtt"))
    let document = try downloadJSON()

    let skipped = try XCTUnwrap((document["skipped"] as? [[String: Any]])?.first, "\(document)")
    XCTAssertEqual(skipped["sideFiles"] as? [String], [stem + ".vtt"])
    XCTAssertEqual(FileManager.default.contents(atPath: stem + ".vtt"), transcript)
    XCTAssertEqual(server.requests(for: chaptersPath).count, 1, "present: not fetched again")
    XCTAssertEqual(server.requests(for: episode.path).count, 1)
  }

  func testTheChaptersFileIsFetchedOnceForTheTagAndTheSideFile() throws {
    let mp3 = try AudioTool.tone(codec: "libmp3lame", ext: "mp3")
    serveFeed(episodeBody: mp3, chaptersLink: true)
    server.set(transcriptPath, .data(transcript, contentType: "text/vtt"))
    server.set(chaptersPath, .data(chapters, contentType: "application/json+chapters"))

    let item = try downloadedItem()

    XCTAssertEqual(item["tagged"] as? Bool, true)
    XCTAssertEqual(server.requests(for: chaptersPath).count, 1)
    XCTAssertEqual(FileManager.default.contents(atPath: stem + ".chapters.json"), chapters)
    let file = try XCTUnwrap(item["file"] as? String)
    XCTAssertEqual(try AudioTool.chapterTitles(file), ["Opening", "Tone"])
  }

  func testChaptersThatAreNotJSONAreRefused() throws {
    serveFeed(chaptersLink: true)
    server.set(transcriptPath, .data(transcript, contentType: "text/vtt"))
    server.set(chaptersPath, .data(Data("chapters: none".utf8), contentType: "application/json"))

    let item = try downloadedItem()

    XCTAssertEqual(item["sideFiles"] as? [String], [stem + ".vtt"])
    let notes = item["sideFileNotes"] as? [String] ?? []
    XCTAssertTrue(notes.first?.contains("not JSON") == true, "\(notes)")
    XCTAssertFalse(FileManager.default.fileExists(atPath: stem + ".chapters.json"))
  }

  /// A transcript stalled mid-body, the process killed: nothing half-written under Episodes,
  /// no debris in the partials folder, and the next run fetches it whole.
  func testAKillMidTranscriptLeavesNoPartialSideFile() throws {
    serveFeed()
    server.set(
      transcriptPath,
      .data(transcript, contentType: "text/vtt").stalling(after: 5_000, seconds: nil, times: 1))
    // The stall holds the rest until the kill; it is not one for the download to give up on.
    binary.environment["PODCAST_TIMEOUT"] = "120"
    let running = try binary.start(["download", server.url(feedPath)])
    let started = server.wait { self.server.bodyBytesSent(for: self.transcriptPath) == 5_000 }
    XCTAssertTrue(started, "the transcript's first bytes were never sent")
    // Killed once those bytes are in the nameless file the transcript is fetched into.
    let partials = binary.library + "/.podcast/partial"
    let holding = waitUntil(seconds: 30) { running.openFileSizes(in: partials).contains(5_000) }
    XCTAssertTrue(holding, "no open file under \(partials) holds the first 5,000 bytes")
    running.signal(SIGKILL)
    _ = try running.wait(timeout: 10)

    XCTAssertEqual(binary.episodeFiles(), ["Side Show/2024-05-10 Tones.mp3"])
    // The folder's playlist is written with the episode it lists, before its side files.
    XCTAssertEqual(
      folderFiles, ["2024-05-10 Tones.mp3", "Side Show.m3u8"], "no hidden temporary file either")
    XCTAssertEqual(binary.partialFiles(), [])

    let rerun = try binary.run(["download", server.url(feedPath)])
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    XCTAssertEqual(FileManager.default.contents(atPath: stem + ".vtt"), transcript)
  }

  /// The same kill under `sync`, of a feed that answers the next sync with 304: the run after
  /// the kill reads the feed whole all the same (the dead run may have left a side file
  /// missing, which only the feed names), and the transcript arrives.
  func testASyncKilledMidTranscriptLeavesTheTranscriptToTheNextSync() throws {
    serveFeed(etag: "\"side\"")
    XCTAssertEqual(try binary.run(["subscribe", server.url(feedPath), "--name", "side"]).status, 0)
    server.set(
      transcriptPath,
      .data(transcript, contentType: "text/vtt").stalling(after: 5_000, seconds: nil, times: 1))
    binary.environment["PODCAST_TIMEOUT"] = "120"
    let running = try binary.start(["sync"])
    let started = server.wait { self.server.bodyBytesSent(for: self.transcriptPath) == 5_000 }
    XCTAssertTrue(started, "the transcript's first bytes were never sent")
    running.signal(SIGKILL)
    _ = try running.wait(timeout: 10)
    XCTAssertEqual(binary.episodeFiles(), ["Side Show/2024-05-10 Tones.mp3"])
    XCTAssertNil(FileManager.default.contents(atPath: stem + ".vtt"))

    let rerun = try binary.run(["sync"])
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    XCTAssertEqual(FileManager.default.contents(atPath: stem + ".vtt"), transcript)
    XCTAssertEqual(
      server.requests(for: feedPath).last?.headers["if-none-match"], nil,
      "the feed was asked for whole")

    let quiet = try binary.run(["sync"])
    XCTAssertEqual(quiet.status, 0, quiet.stderr)
    XCTAssertEqual(
      server.requests(for: feedPath).last?.headers["if-none-match"], "\"side\"",
      "once nobody died, a conditional request again")
  }

  /// The feed names a new picture; no new episode: `sync` still replaces the folder's cover,
  /// and an unchanged picture is not fetched again.
  func testSyncRefreshesTheCoverWhenTheFeedsPictureChanges() throws {
    let png = try AudioTool.png()
    let jpeg = try AudioTool.jpeg()
    server.set("/art/old.png", .data(png, contentType: "image/png"))
    server.set("/art/new.jpg", .data(jpeg, contentType: "image/jpeg"))
    server.set(transcriptPath, .data(transcript, contentType: "text/vtt"))
    serveFeed(image: "/art/old.png")
    let subscribed = try binary.run(["subscribe", server.url(feedPath), "--name", "side"])
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    XCTAssertEqual(try binary.run(["sync"]).status, 0)
    XCTAssertEqual(FileManager.default.contents(atPath: folder + "/cover.png"), png)
    XCTAssertEqual(try binary.run(["sync"]).status, 0)
    XCTAssertEqual(server.requests(for: "/art/old.png").count, 1, "unchanged: not fetched again")

    serveFeed(image: "/art/new.jpg")
    let synced = try binary.run(["sync", "--json"])

    XCTAssertEqual(synced.status, 0, synced.stderr)
    let document = try XCTUnwrap(synced.json() as? [String: Any])
    XCTAssertEqual((document["downloaded"] as? [Any])?.count, 0, "no new episode")
    XCTAssertEqual(document["covers"] as? [String], [folder + "/cover.jpg"])
    XCTAssertEqual(FileManager.default.contents(atPath: folder + "/cover.jpg"), jpeg)
    XCTAssertEqual(
      folderFiles, ["2024-05-10 Tones.mp3", "2024-05-10 Tones.vtt", "Side Show.m3u8", "cover.jpg"],
      "the old picture is replaced")
    XCTAssertEqual(server.requests(for: episode.path).count, 1)
  }

  /// A transcript that could not be had when its episode downloaded is fetched by a later
  /// sync, once; the episode is not fetched again.
  func testSyncFetchesASideFileAnEarlierRunMissed() throws {
    serveFeed()
    server.set(transcriptPath, .status(503))
    let subscribed = try binary.run(["subscribe", server.url(feedPath), "--name", "side"])
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    let first = try binary.run(["sync"])
    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertTrue(first.stdout.contains("transcript not kept"), first.stdout)
    XCTAssertEqual(folderFiles, ["2024-05-10 Tones.mp3", "Side Show.m3u8"])

    server.set(transcriptPath, .data(transcript, contentType: "text/vtt"))
    let second = try binary.run(["sync", "--json"])

    XCTAssertEqual(second.status, 0, second.stderr)
    let document = try XCTUnwrap(second.json() as? [String: Any])
    XCTAssertEqual(document["sideFiles"] as? [String], [stem + ".vtt"])
    XCTAssertEqual(FileManager.default.contents(atPath: stem + ".vtt"), transcript)
    let asked = server.requests(for: transcriptPath).count
    XCTAssertEqual(try binary.run(["sync"]).status, 0)
    XCTAssertEqual(server.requests(for: transcriptPath).count, asked, "present: not fetched again")
    XCTAssertEqual(server.requests(for: episode.path).count, 1)
  }

  private func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      usleep(20_000)
    }
    return condition()
  }
}
