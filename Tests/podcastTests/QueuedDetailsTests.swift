import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// A download queued by `subscribe`, or interrupted and resumed by a sync whose feed answers
/// 304, keeps everything the feed said about its episode: the same file name, tags, cover,
/// transcript and chapters as a download made from the freshly read feed. The subscription's
/// side-file settings are the ones in force when it downloads, not when it was queued.
final class QueuedDetailsTests: LibraryTestCase {
  private let feedPath = "/details/feed.xml"
  private let transcriptPath = "/details/2.vtt"
  private let chaptersPath = "/details/2.chapters.json"
  private let transcript = Data("WEBVTT\n\n00:00.000 --> 00:01.000\nA tone.\n".utf8)
  private let chapters = Data(
    #"{"version":"1.2.0","chapters":[{"startTime":0,"title":"Opening"},{"startTime":1,"title":"Tone"}]}"#
      .utf8)
  private var mp3 = Data()
  private var channelImage = Data()
  private var episodeImage = Data()
  private var etag = "\"details-v1\""

  private var folder: String { binary.episodesDirectory + "/Detail Show" }
  private var stem: String { folder + "/2024-05-11 Tones & Things" }

  override func setUpWithError() throws {
    try super.setUpWithError()
    mp3 = try AudioTool.tone(codec: "libmp3lame", ext: "mp3")
    channelImage = try AudioTool.jpeg()
    episodeImage = try AudioTool.png()
    server.set("/art/show.jpg", .data(channelImage, contentType: "image/jpeg"))
    server.set("/art/episode.png", .data(episodeImage, contentType: "image/png"))
    server.set(transcriptPath, .data(transcript, contentType: "text/vtt"))
    server.set(chaptersPath, .data(chapters, contentType: "application/json+chapters"))
  }

  /// The older, plain episode and (unless `rich` is false) the newer one, a real MP3 with
  /// every detail a feed can give. Served with an ETag, so an unchanged feed gets a 304.
  private func serveFeed(rich: Bool = true, enclosure: (Route) -> Route = { $0 }) {
    let older = FakeEpisode(
      title: "Older", guid: "details-1", published: Date(timeIntervalSince1970: 1_715_248_800),
      path: "/details/1.mp3", body: FeedFixture.bytes(5_000, seed: 9))
    let newer = FakeEpisode(
      title: "Tones & Things", guid: "details-2",
      published: Date(timeIntervalSince1970: 1_715_421_600), path: "/details/2.mp3", body: mp3)
    var rss = FeedFixture.rss(
      title: "Detail Show", episodes: rich ? [newer, older] : [older], base: server.baseURL,
      channelExtra: "<itunes:image href=\"\(server.url("/art/show.jpg"))\"/>")
    let details =
      "<itunes:episode>3</itunes:episode><itunes:season>2</itunes:season>"
      + "<description>&lt;p&gt;All about &lt;b&gt;440 Hz&lt;/b&gt;.&lt;/p&gt;</description>"
      + "<itunes:image href=\"\(server.url("/art/episode.png"))\"/>"
      + "<podcast:transcript url=\"\(server.url(transcriptPath))\" type=\"text/vtt\"/>"
      + "<podcast:chapters url=\"\(server.url(chaptersPath))\" type=\"application/json+chapters\"/>"
    // The first `<itunes:duration>` is the newest item's own.
    if rich, let range = rss.range(of: "<itunes:duration>") {
      rss.replaceSubrange(range, with: details + "<itunes:duration>")
    }
    rss = rss.replacingOccurrences(
      of: "<rss version=\"2.0\"",
      with: "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"")
    server.set(
      feedPath,
      .text(rss, contentType: "application/rss+xml").withETag(rich ? "\"v2\"" : "\"v1\""))
    server.set(newer.path, enclosure(.data(mp3, contentType: "audio/mpeg").withETag("\"mp3\"")))
    server.set(older.path, .data(older.body, contentType: "audio/mpeg"))
  }

  private func subscribe(_ extra: String...) throws {
    let result = try binary.run(
      ["subscribe", server.url(feedPath), "--name", "details"] + extra)
    XCTAssertEqual(result.status, 0, result.stderr)
  }

  private func assertLastFeedAnswer(
    is status: Int, file: StaticString = #filePath, line: UInt = #line
  ) {
    let requests = server.requests(for: feedPath).count
    eventually("the server to log \(requests) feed responses", file: file, line: line) {
      responses.entries.filter { $0.path == feedPath }.count == requests
    }
    let answers = responses.entries.filter { $0.path == feedPath }
    XCTAssertEqual(answers.last?.status, status, "\(answers)", file: file, line: line)
  }

  /// What a download from the freshly read feed makes, in a library of its own.
  private func freshDownload() throws -> (tags: [String: String], chapters: [String]) {
    let other = try PodcastBinary()
    defer { try? FileManager.default.removeItem(atPath: other.library) }
    let result = try other.run(["download", server.url(feedPath)])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(
      other.allFiles(),
      [
        "Detail Show/2024-05-11 Tones & Things.chapters.json",
        "Detail Show/2024-05-11 Tones & Things.mp3",
        "Detail Show/2024-05-11 Tones & Things.vtt", "Detail Show/Detail Show.m3u8",
        "Detail Show/cover.jpg",
      ])
    let file = other.episodesDirectory + "/Detail Show/2024-05-11 Tones & Things.mp3"
    return (try AudioTool.tags(file), try AudioTool.chapterTitles(file))
  }

  /// The rich episode as the feed describes it, beside its transcript, chapters and cover.
  private func assertFullyDetailed(file: StaticString = #filePath, line: UInt = #line) throws {
    XCTAssertEqual(
      binary.allFiles(),
      [
        "Detail Show/2024-05-11 Tones & Things.chapters.json",
        "Detail Show/2024-05-11 Tones & Things.mp3",
        "Detail Show/2024-05-11 Tones & Things.vtt", "Detail Show/Detail Show.m3u8",
        "Detail Show/cover.jpg",
      ], file: file, line: line)
    let audio = stem + ".mp3"
    let tags = try AudioTool.tags(audio)
    XCTAssertEqual(tags["title"], "Tones & Things", file: file, line: line)
    XCTAssertEqual(tags["album"], "Detail Show", file: file, line: line)
    XCTAssertEqual(tags["artist"], "Test Author", file: file, line: line)
    XCTAssertEqual(tags["comment"], "All about 440 Hz.", file: file, line: line)
    XCTAssertEqual(tags["track"], "3", file: file, line: line)
    XCTAssertEqual(tags["disc"], "2", file: file, line: line)
    XCTAssertTrue(try AudioTool.hasCover(audio), "no cover in the tag", file: file, line: line)
    XCTAssertEqual(
      try AudioTool.audioMD5(audio), try AudioTool.audioMD5(of: mp3, ext: "mp3"),
      file: file, line: line)
    XCTAssertEqual(
      FileManager.default.contents(atPath: folder + "/cover.jpg"), channelImage,
      file: file, line: line)
    XCTAssertEqual(
      FileManager.default.contents(atPath: stem + ".vtt"), transcript, file: file, line: line)
    XCTAssertEqual(
      FileManager.default.contents(atPath: stem + ".chapters.json"), chapters,
      file: file, line: line)
    let fresh = try freshDownload()
    XCTAssertEqual(tags, fresh.tags, "tags differ from a fresh download", file: file, line: line)
    XCTAssertEqual(
      try AudioTool.chapterTitles(audio), fresh.chapters, file: file, line: line)
    XCTAssertEqual(fresh.chapters, ["Opening", "Tone"], file: file, line: line)
  }

  func testTheFirstSyncsDownloadAfterA304HasTheFeedsTagsCoverAndSideFiles() throws {
    serveFeed()
    try subscribe()

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    assertLastFeedAnswer(is: 304)
    try assertFullyDetailed()
    XCTAssertEqual(server.requests(for: "/details/1.mp3").count, 0)
  }

  /// A sync reads the changed feed, starts the new episode and is killed mid-body; the next
  /// sync's feed answers 304, and the resumed file still gets everything.
  func testADownloadKilledMidBodyAndResumedAfterA304KeepsItsDetails() throws {
    serveFeed(rich: false)
    try subscribe("--first", "none")
    serveFeed(enclosure: { $0.stalling(after: 4_000, seconds: nil, times: 1) })

    let running = try binary.start(["sync"])
    eventually("the episode's first bytes to land", timeout: 20) {
      binary.partialFiles().contains { name in
        let path = binary.library + "/.podcast/partial/" + name
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int
        return (size ?? 0) >= 4_000
      }
    }
    // The bytes on disk are not yet the row's: a kill before the row records the transfer
    // leaves nothing to resume from (what a loaded machine showed).
    try eventually("the download's row to count the bytes") {
      let row = try statusRows().first { $0["url"] as? String == server.url("/details/2.mp3") }
      return (row?["bytes"] as? Int ?? 0) > 0
    }
    running.signal(SIGKILL)
    _ = try running.wait(timeout: 10)
    XCTAssertEqual(binary.episodeFiles(), [], "nothing under Episodes before the file is whole")

    let resumed = try podcast("sync")

    XCTAssertEqual(resumed.status, 0, resumed.stderr)
    assertLastFeedAnswer(is: 304)
    let requests = server.requests(for: "/details/2.mp3")
    XCTAssertEqual(requests.count, 2)
    XCTAssertNotNil(requests.last?.header("range"), "the second request resumes")
    try assertFullyDetailed()
  }

  /// `set --no-transcripts` after `subscribe` queued the episode: the first sync (a 304)
  /// applies it, and still writes the tags and the other side files.
  func testSettingsChangedBeforeTheFirstSyncApplyToWhatSubscribeQueued() throws {
    serveFeed()
    try subscribe()
    let set = try podcast("set", "details", "--no-transcripts")
    XCTAssertEqual(set.status, 0, set.stderr)

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    assertLastFeedAnswer(is: 304)
    XCTAssertEqual(server.requests(for: transcriptPath).count, 0)
    XCTAssertEqual(
      binary.allFiles(),
      [
        "Detail Show/2024-05-11 Tones & Things.chapters.json",
        "Detail Show/2024-05-11 Tones & Things.mp3", "Detail Show/Detail Show.m3u8",
        "Detail Show/cover.jpg",
      ])
    let tags = try AudioTool.tags(stem + ".mp3")
    XCTAssertEqual(tags["comment"], "All about 440 Hz.")
    XCTAssertTrue(try AudioTool.hasCover(stem + ".mp3"))
  }

  /// The episode was downloaded once, its file deleted, the feed subscribed again: the first
  /// sync fetches it again, as sync does for any chosen episode whose file is gone.
  func testSubscribeQueuesAPickedEpisodeWhoseFileIsGone() throws {
    serveFeed()
    try subscribe()
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertTrue(FileManager.default.fileExists(atPath: stem + ".mp3"))
    XCTAssertEqual(try podcast("unsubscribe", "details").status, 0)
    try FileManager.default.removeItem(atPath: folder)
    try subscribe()

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    assertLastFeedAnswer(is: 304)
    XCTAssertEqual(server.requests(for: "/details/2.mp3").count, 2)
    try assertFullyDetailed()
  }
}
