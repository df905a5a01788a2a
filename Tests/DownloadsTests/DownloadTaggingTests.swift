import Basics
import Downloads
import Fetching
import Foundation
import LoopbackServer
import Model
import Store
import StoreTestSupport
import Tags
import TagsTestSupport
import XCTest

/// The tag step of the download path, in-process against the loopback server: a verified
/// episode is tagged before it appears under Episodes, its audio untouched, and a run killed
/// mid-tag never leaves anything that is resumed or finished.
final class DownloadTaggingTests: XCTestCase {
  private var server: LoopbackServer!
  private var library: TemporaryLibrary!
  private var audio: AudioFixtures!

  override func setUpWithError() throws {
    server = try LoopbackServer()
    library = try TemporaryLibrary()
    audio = try AudioFixtures()
  }

  override func tearDownWithError() throws {
    server.stop()
  }

  private let tags = EpisodeTags(
    title: "Episode Seven", podcast: "The Show", author: "Ada",
    published: Date(timeIntervalSince1970: 1_715_335_200), number: 7, season: 2,
    comment: "What happened.")

  private func job(
    _ path: String, name: String = "Seven.mp3", covers: [String] = [], chapters: String? = nil
  ) -> DownloadJob {
    DownloadJob(
      url: server.url(path), title: "Episode Seven", podcastTitle: "The Show",
      relativePath: "The Show/" + name, mimeType: "audio/mpeg",
      feedURL: server.url("/feed.xml"), identityKeys: ["guid:7"],
      tagging: TagRequest(tags: tags, coverURLs: covers.map { server.url($0) }),
      chaptersURL: chapters.map(server.url))
  }

  private func download(_ jobs: [DownloadJob]) async throws -> [DownloadOutcome] {
    var options = DownloadOptions()
    options.retryDelay = .milliseconds(10)
    let manager = DownloadManager(store: try library.store(), options: options)
    return await manager.download(jobs).map(\.outcome)
  }

  private func fields(_ path: String) throws -> [String: String] {
    Dictionary(
      try TagReader.fields(ofFileAt: path).map { ($0.key, $0.text) },
      uniquingKeysWith: { a, _ in a }
    )
  }

  private var partials: [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: library.paths.partials)) ?? []
  }

  func testAVerifiedMP3IsTaggedWithItsCoverAndKeepsItsAudio() async throws {
    let mp3 = try audio.tone("served.mp3", codec: "libmp3lame")
    let served = try Data(contentsOf: URL(fileURLWithPath: mp3))
    let cover = try audio.picture("cover.png")
    server.set("/7.mp3", .data(served, contentType: "audio/mpeg").withETag("\"v1\""))
    server.set("/missing.jpg", .status(404))
    server.set("/cover.png", .data(cover, contentType: "image/png"))
    let chapters =
      #"{"version":"1.2.0","chapters":[{"startTime":0,"title":"Intro"},{"startTime":1,"title":"Tone"}]}"#
    server.set("/7.json", .data(Data(chapters.utf8), contentType: "application/json+chapters"))

    let outcomes = try await download([
      job("/7.mp3", covers: ["/missing.jpg", "/cover.png"], chapters: "/7.json")
    ])

    let file = library.paths.episodes + "/The Show/Seven.mp3"
    let size = try XCTUnwrap(
      FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber
    ).int64Value
    XCTAssertEqual(
      outcomes,
      [
        .downloaded(
          file: file, bytes: size,
          report: SideFileReport(
            tagged: true, cover: true,
            files: [library.paths.episodes + "/The Show/Seven.chapters.json"]))
      ], "the job's one chapters URL feeds both the tag and the side file")
    let read = try fields(file)
    XCTAssertEqual(read["ID3v2:TIT2"], "Episode Seven")
    XCTAssertEqual(read["ID3v2:TALB"], "The Show")
    XCTAssertEqual(read["ID3v2:TPE1"], "Ada")
    XCTAssertEqual(read["ID3v2:TRCK"], "7")
    XCTAssertEqual(read["ID3v2:TPOS"], "2")
    XCTAssertEqual(read["ID3v2:TCON"], "Podcast")
    XCTAssertEqual(read["ID3v2:CHAP:chp0"], "0-1000 Intro", "the feed's chapters are in the tag")
    XCTAssertEqual(read["ID3v2:CHAP:chp1"]?.hasSuffix(" Tone"), true)
    let picture = try TagReader.fields(ofFileAt: file).first { $0.key.hasPrefix("ID3v2:APIC") }
    XCTAssertEqual(picture?.value, cover, "the first cover that is a picture is embedded")
    XCTAssertEqual(
      try AudioFixtures.audioPacketsMD5(file), try AudioFixtures.audioPacketsMD5(mp3),
      "tagging never changes the audio")
    XCTAssertEqual(partials, [], "neither the partial nor its tagged copy is left behind")
    let row = try XCTUnwrap(
      try DownloadRows(store: library.store()).find(url: server.url("/7.mp3")))
    XCTAssertEqual(row.state, .done)
    XCTAssertEqual(row.bytes, size, "the row records the file as it is on disk")
  }

  /// A kill mid-tag leaves the partial complete and untouched (it is never tagged itself) and
  /// a tagged copy in an unknown state beside it. The rerun deletes the copy, finishes from
  /// the partial's bytes without fetching them again, and tags afresh.
  func testACopyLeftByARunKilledMidTagIsDiscardedAndThePartialFinishesTagged() async throws {
    let mp3 = try audio.tone("served.mp3", codec: "libmp3lame")
    let served = try Data(contentsOf: URL(fileURLWithPath: mp3))
    server.set("/7.mp3", .data(served, contentType: "audio/mpeg").withETag("\"v1\""))
    let store = try library.store()
    try library.paths.prepare()
    let url = server.url("/7.mp3")
    try store.seed(
      DownloadRecord(
        url: url, podcastTitle: "The Show", episodeTitle: "Episode Seven", state: .downloading,
        bytes: Int64(served.count), total: Int64(served.count), partialPath: "",
        etag: "\"v1\"", episodeKey: "guid:7",
        owner: ProcessOwner(pid: 999_999, started: 1, boot: ProcessOwner.currentBoot),
        feedURL: server.url("/feed.xml")))
    let partial = library.paths.partial(
      forKey: DownloadKey(feedURL: server.url("/feed.xml"), episodeKey: "guid:7", url: url))
    try served.write(to: URL(fileURLWithPath: partial))
    // What TagLib leaves when killed halfway through rewriting: a header and a hole.
    let debris = EpisodeTagging.copyPath(of: partial)
    try (Data("ID3".utf8) + Data(count: 4000)).write(to: URL(fileURLWithPath: debris))

    let outcomes = try await download([job("/7.mp3")])

    let file = library.paths.episodes + "/The Show/Seven.mp3"
    guard case .downloaded(let placed, _, let note) = outcomes.first else {
      return XCTFail("\(outcomes)")
    }
    XCTAssertEqual(placed, file)
    XCTAssertTrue(note.tagged)
    XCTAssertEqual(server.requests(for: "/7.mp3").count, 0, "the complete partial needs no fetch")
    XCTAssertEqual(try fields(file)["ID3v2:TIT2"], "Episode Seven")
    XCTAssertEqual(
      try AudioFixtures.audioPacketsMD5(file), try AudioFixtures.audioPacketsMD5(mp3),
      "the finished file holds the server's audio, not the debris")
    XCTAssertEqual(partials, [])
  }

  /// The partial is never what TagLib writes: when the finish fails after tagging, the
  /// partial still holds exactly the server's bytes, so the rerun resumes from it safely.
  func testTaggingNeverWritesThePartialItself() async throws {
    let mp3 = try audio.tone("served.mp3", codec: "libmp3lame")
    let served = try Data(contentsOf: URL(fileURLWithPath: mp3))
    server.set("/7.mp3", .data(served, contentType: "audio/mpeg").withETag("\"v1\""))
    try library.paths.prepare()
    // A file where the podcast's folder should be: the finish fails after the tag step.
    let folder = library.paths.episodes + "/The Show"
    XCTAssertTrue(FileManager.default.createFile(atPath: folder, contents: Data("x".utf8)))

    let failed = try await download([job("/7.mp3")])

    guard case .failed = failed.first else { return XCTFail("\(failed)") }
    let partial = library.paths.partial(
      forKey: DownloadKey(
        feedURL: server.url("/feed.xml"), episodeKey: "guid:7", url: server.url("/7.mp3")))
    XCTAssertEqual(FileManager.default.contents(atPath: partial), served, "untouched by TagLib")
    XCTAssertEqual(partials, [(partial as NSString).lastPathComponent], "no tagged copy is left")

    try FileManager.default.removeItem(atPath: folder)
    let outcomes = try await download([job("/7.mp3")])

    guard case .downloaded(let file, _, let note) = outcomes.first else {
      return XCTFail("\(outcomes)")
    }
    XCTAssertTrue(note.tagged)
    XCTAssertEqual(server.requests(for: "/7.mp3").count, 1, "the rerun needs no second fetch")
    XCTAssertEqual(
      try AudioFixtures.audioPacketsMD5(file), try AudioFixtures.audioPacketsMD5(mp3))
  }

  func testAFormatTagLibCannotWriteIsFinishedAsServedWithANote() async throws {
    let wav = try audio.tone("served.wav", codec: "pcm_s16le")
    let served = try Data(contentsOf: URL(fileURLWithPath: wav))
    server.set("/7.wav", .data(served, contentType: "audio/wav"))

    let outcomes = try await download([job("/7.wav", name: "Seven.wav")])

    let file = library.paths.episodes + "/The Show/Seven.wav"
    guard case .downloaded(let placed, let bytes, let note) = outcomes.first else {
      return XCTFail("\(outcomes)")
    }
    XCTAssertEqual(placed, file)
    XCTAssertEqual(bytes, Int64(served.count))
    XCTAssertFalse(note.tagged)
    XCTAssertEqual(note.note, "not tagged: TagLib does not write WAV")
    XCTAssertEqual(FileManager.default.contents(atPath: file), served, "left exactly as served")
    XCTAssertEqual(partials, [])
  }

  func testBytesThatAreNoAudioAreFinishedAsServedAndTheNoteSaysWhatTheFeedClaimed() async throws {
    let served = Data((0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    server.set("/7.mp3", .data(served, contentType: "audio/mpeg"))

    let outcomes = try await download([job("/7.mp3")])

    guard case .downloaded(let file, _, let note) = outcomes.first else {
      return XCTFail("\(outcomes)")
    }
    XCTAssertEqual(note.note, "not tagged: not an audio format TagLib writes (the feed says MP3)")
    XCTAssertEqual(FileManager.default.contents(atPath: file), served)
  }

  func testM4AAndOpusDownloadsAreTaggedTooWithTheirAudioUnchanged() async throws {
    let m4a = try audio.tone("served.m4a", codec: "aac")
    let opus = try audio.tone("served.opus", codec: "libopus")
    server.set(
      "/7.m4a", .data(try Data(contentsOf: URL(fileURLWithPath: m4a)), contentType: "audio/mp4"))
    server.set(
      "/8.opus", .data(try Data(contentsOf: URL(fileURLWithPath: opus)), contentType: "audio/ogg"))
    var second = job("/8.opus", name: "Eight.opus")
    second.identityKeys = ["guid:8"]

    let outcomes = try await download([job("/7.m4a", name: "Seven.m4a"), second])

    let files = outcomes.compactMap { outcome -> String? in
      guard case .downloaded(let file, _, let report) = outcome, report.tagged else { return nil }
      return file
    }
    XCTAssertEqual(files.count, 2, "\(outcomes)")
    let folder = library.paths.episodes + "/The Show/"
    XCTAssertEqual(try fields(folder + "Seven.m4a")["MP4:\u{00A9}nam"], "Episode Seven")
    XCTAssertEqual(try fields(folder + "Eight.opus")["Xiph:TITLE"], "Episode Seven")
    XCTAssertEqual(
      try AudioFixtures.mp4MediaData(folder + "Seven.m4a"), try AudioFixtures.mp4MediaData(m4a))
    XCTAssertEqual(
      try AudioFixtures.audioPacketsMD5(folder + "Eight.opus"),
      try AudioFixtures.audioPacketsMD5(opus))
  }

  func testWithoutATagRequestTheFileIsLeftAsServed() async throws {
    let mp3 = try audio.tone("served.mp3", codec: "libmp3lame")
    let served = try Data(contentsOf: URL(fileURLWithPath: mp3))
    server.set("/7.mp3", .data(served, contentType: "audio/mpeg"))
    var untagged = job("/7.mp3")
    untagged.tagging = nil

    let outcomes = try await download([untagged])

    let file = library.paths.episodes + "/The Show/Seven.mp3"
    XCTAssertEqual(outcomes, [.downloaded(file: file, bytes: Int64(served.count))])
    XCTAssertEqual(FileManager.default.contents(atPath: file), served)
  }
}
