import Foundation
import Model
import SideFiles
import Store
import StoreTestSupport
import XCTest

/// A podcast folder's page and the Episodes directory's index: what they say, that feed text
/// stays inert in them, and when they are written, left alone or removed. What a browser does
/// with them is `PageBrowserTests`' (in the end-to-end tests).
final class FolderPageTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var show: String { library.paths.episodes + "/Show & Tell" }
  private var page: FolderPage { FolderPage(folder: show) }
  private var index: String { library.paths.episodes + "/index.html" }

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
  }

  private func day(_ number: Int) -> Date {
    Date(timeIntervalSince1970: 1_714_521_600 + Double(number) * 86_400)
  }

  @discardableResult
  private func finished(
    _ name: String, archive: ArchivedEpisode?, bytes: Int = 1_234, key: String? = nil,
    title: String = "", folder: String? = nil
  ) throws -> String {
    let file = (folder ?? show) + "/" + name
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(count: bytes)))
    try store.seed(
      DownloadRecord(
        url: "https://cdn.example/\(name.hashValue).mp3?token=CDNSECRET",
        podcastTitle: "Show & Tell", episodeTitle: title, state: .done,
        partialPath: "/p/\(name.hashValue).part", file: file, episodeKey: key,
        feedURL: "https://www.patreon.com/rss/show?auth=FEEDSECRET",
        published: archive?.published, archive: archive?.encoded))
    return file
  }

  private var channel: ArchivedEpisode.Channel {
    ArchivedEpisode.Channel(
      title: "Show & Tell </title><script>alert(1)</script>", author: "Ada",
      description: "<p>About <img src=\"https://tracker.example/p.gif\">us</p>", language: "de")
  }

  private func text(_ path: String? = nil) throws -> String {
    try String(contentsOfFile: path ?? page.path, encoding: .utf8)
  }

  func testThePageListsEachEpisodeOnDiskNewestFirstWithItsFacts() throws {
    try finished(
      "2024-05-02 Tom & Jerry.mp3",
      archive: ArchivedEpisode(
        title: "Tom & Jerry <1>", published: day(2),
        showNotes: "<p>Hi <script>alert(1)</script><a href=\"javascript:x\">x</a></p>",
        duration: 3_725, podcast: channel),
      bytes: 57_300_000, key: "guid:tj")
    let second = try finished(
      "Season 1/Café #2.m4a",
      archive: ArchivedEpisode(title: "Café", published: day(1), podcast: channel))
    let stem = (second as NSString).deletingPathExtension
    try Data(
      "WEBVTT\n\n00:00.000 --> 00:02.000\n<v Ana>Hello there\n\n00:02.000 --> 00:04.500\nBye\n".utf8
    )
    .write(to: URL(fileURLWithPath: stem + ".vtt"))
    try Data(
      #"{"chapters":[{"startTime":0,"title":"Intro"},{"startTime":1.5,"title":"Q&amp;A <b>live</b> <3"}]}"#
        .utf8
    )
    .write(to: URL(fileURLWithPath: stem + ".chapters.json"))
    XCTAssertTrue(FileManager.default.createFile(atPath: show + "/cover.jpg", contents: Data()))
    // Not an episode: never on the page.
    XCTAssertTrue(FileManager.default.createFile(atPath: show + "/mine.mp3", contents: Data()))
    try PlayStates(store: store).recordMarked([
      (PlayState(key: "guid:tj", played: true, playedAt: day(3), actedAt: day(3)), "u", nil)
    ])

    XCTAssertEqual(try page.update(store: store, asked: true), .written(entries: 2))

    let text = try text()
    XCTAssertTrue(text.hasPrefix("<!DOCTYPE html>\n"), text)
    XCTAssertTrue(
      text.contains(
        "<title>Show &amp; Tell &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>"), text)
    XCTAssertFalse(text.contains("<script>"), "no inline script at all")
    XCTAssertFalse(text.contains("javascript:"))
    XCTAssertFalse(text.contains("tracker.example"))
    XCTAssertTrue(text.contains("<script src=\"../podcast-page.js\" defer></script>"), text)
    XCTAssertTrue(text.contains("http-equiv=\"Content-Security-Policy\""), text)
    XCTAssertFalse(text.contains("frame-ancestors"), "a <meta> policy cannot carry it")
    XCTAssertEqual(text.components(separatedBy: "<audio").count - 1, 1, "one shared player")
    XCTAssertEqual(text.components(separatedBy: "<li class=\"ep\"").count - 1, 2)
    let first = try XCTUnwrap(text.range(of: "Tom &amp; Jerry &lt;1&gt;"))
    let later = try XCTUnwrap(text.range(of: ">Café</h2>"))
    XCTAssertLessThan(first.lowerBound, later.lowerBound, "newest first")
    XCTAssertTrue(text.contains("data-file=\"2024-05-02%20Tom%20%26%20Jerry.mp3\""), text)
    XCTAssertTrue(text.contains("data-file=\"Season%201/Caf%C3%A9%20%232.m4a\""), text)
    XCTAssertTrue(text.contains("data-vtt=\"Season%201/Caf%C3%A9%20%232.vtt\""), text)
    XCTAssertTrue(text.contains("<time datetime=\"2024-05-03T00:00:00Z\">2024-05-03</time>"), text)
    XCTAssertTrue(text.contains("1:02:05 · 57.3 MB · <span class=\"played\">Played</span>"), text)
    XCTAssertTrue(
      text.contains(
        "<details class=\"notes\"><summary>Show notes</summary><div lang=\"de\"><p>Hi <a>x</a></p></div></details>"
      ),
      text)
    XCTAssertTrue(
      text.contains(
        "<button type=\"button\" data-t=\"1.5\"><span class=\"time\">0:01</span> Q&amp;A live &lt;3</button>"
      ), text)
    XCTAssertTrue(text.contains("0\t2\tAna: Hello there\n2\t4.5\tBye\n"), text)
    XCTAssertTrue(text.contains("<img class=\"cover\" src=\"cover.jpg\""), text)
    XCTAssertTrue(text.contains("<p>About us</p>"), text)
    XCTAssertFalse(text.contains("mine.mp3"))
    for secret in ["FEEDSECRET", "CDNSECRET", "cdn.example", "patreon"] {
      XCTAssertFalse(text.contains(secret), secret)
    }
  }

  func testTheIndexListsEveryFolderWithAPageAndTheSharedFiles() throws {
    let one = try finished(
      "one.mp3", archive: ArchivedEpisode(title: "One", published: day(1), podcast: channel))
    try finished(
      "a.mp3", archive: ArchivedEpisode(title: "A", published: day(5)),
      folder: library.paths.episodes + "/Another")
    try finished(
      "b.mp3", archive: ArchivedEpisode(title: "B", published: day(5)),
      folder: library.paths.episodes + "/No page")

    let asked = FolderRequest(page: true)
    let failures = FolderViews.update(
      [
        TouchedFile(one, .changed, request: asked),
        TouchedFile(library.paths.episodes + "/Another/a.mp3", .changed, request: asked),
        TouchedFile(library.paths.episodes + "/No page/b.mp3", .changed),
      ],
      episodesDirectories: [library.paths.episodes], store: store)

    XCTAssertEqual(failures, [])
    let index = try text(index)
    XCTAssertTrue(index.contains("<a href=\"Another/index.html\">"), index)
    XCTAssertTrue(index.contains("<a href=\"Show%20%26%20Tell/index.html\">"), index)
    XCTAssertFalse(index.contains("No%20page"), "a folder without a page is not listed")
    XCTAssertTrue(index.contains("1 episode · newest 2024-05-06"), index)
    XCTAssertTrue(index.contains("<input type=\"search\" id=\"filter\""), index)
    XCTAssertFalse(index.contains("<script>"), index)
    XCTAssertTrue(
      index.contains(">Show &amp; Tell &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;<"),
      "the title read back from the page is escaped again")
    for shared in ["podcast-page.css", "podcast-page.js", "podcast-page.svg"] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: library.paths.episodes + "/" + shared))
    }
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: library.paths.episodes + "/No page/index.html"))

    // The last page gone: the index and the shared files go with it.
    try FileManager.default.removeItem(atPath: one)
    try FileManager.default.removeItem(atPath: library.paths.episodes + "/Another/a.mp3")
    XCTAssertEqual(
      FolderViews.update(
        [
          TouchedFile(one, .changed),
          TouchedFile(library.paths.episodes + "/Another/a.mp3", .changed),
        ],
        episodesDirectories: [library.paths.episodes], store: store), [])
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: library.paths.episodes).sorted(),
      ["No page"])
  }

  func testUntouchedWhenUnchangedFollowsPlaysAndRemovedWithTheLastEpisode() throws {
    let file = try finished(
      "one.mp3", archive: ArchivedEpisode(title: "One", published: day(1)), key: "guid:1")
    XCTAssertEqual(try page.update(store: store, asked: false), .unchanged, "not asked")
    XCTAssertFalse(FileManager.default.fileExists(atPath: page.path))
    XCTAssertEqual(try page.update(store: store, asked: true), .written(entries: 1))
    let inode = try FileManager.default.attributesOfItem(atPath: page.path)[.systemFileNumber]
    XCTAssertEqual(try page.update(store: store, asked: false), .unchanged)
    XCTAssertEqual(
      try FileManager.default.attributesOfItem(atPath: page.path)[.systemFileNumber] as? Int,
      inode as? Int)

    try PlayStates(store: store).recordMarked([
      (PlayState(key: "guid:1", played: true, playedAt: day(2), actedAt: day(2)), "u", nil)
    ])
    XCTAssertEqual(try page.update(store: store, asked: false), .written(entries: 1))
    XCTAssertTrue(try text().contains("<span class=\"played\">Played</span>"))

    try FileManager.default.removeItem(atPath: file)
    XCTAssertEqual(try page.update(store: store, asked: false), .removed)
    XCTAssertFalse(FileManager.default.fileExists(atPath: show), "the emptied folder goes")
  }

  func testAnIndexPageNotWrittenByPodcastIsLeftAlone() throws {
    try finished("one.mp3", archive: ArchivedEpisode(title: "One", published: day(1)))
    let own = Data("<html><body>my own page</body></html>".utf8)
    try own.write(to: URL(fileURLWithPath: page.path))

    XCTAssertEqual(try page.update(store: store, asked: true), .unchanged)
    XCTAssertEqual(FileManager.default.contents(atPath: page.path), own)
  }

  /// The page's shaping of what FullText's readers read (their parsing is tested in
  /// FullTextTests' TranscriptReaderTests): timed passages in time order, each with an end,
  /// the speaker in front; untimed transcripts make no cues.
  func testTranscriptFormatsBecomeCues() {
    let srt =
      "1\r\n00:00:01,000 --> 00:00:03,500\r\nFirst <i>line</i>\r\nwrapped\r\n\r\n2\r\n01:00:00,000 --> 01:00:02,000\r\nLate\r\n"
    XCTAssertEqual(
      PageTranscript.cues(Data([0xEF, 0xBB, 0xBF]) + Data(srt.utf8), fileName: "a.en.srt"),
      [
        .init(start: 1, end: 3.5, text: "First line wrapped"),
        .init(start: 3600, end: 3602, text: "Late"),
      ])
    let vtt =
      "WEBVTT - title\n\nNOTE a note\n\nSTYLE\n::cue { color: red }\n\nid-1\n00:05.250 --> 00:07.000 align:start\n<v.loud Bob>Hi &amp; bye\n"
    XCTAssertEqual(
      PageTranscript.cues(Data(vtt.utf8), fileName: "a.vtt"),
      [.init(start: 5.25, end: 7, text: "Bob: Hi & bye")])
    let json =
      #"{"version":"1.0.0","segments":[{"speaker":"Ana","startTime":0,"endTime":0.5,"body":"Hello"},{"speaker":"Ana","startTime":0.5,"endTime":1,"body":"world."},{"speaker":"Bo","startTime":"1.2","endTime":2,"body":"Hi"},{"startTime":2,"body":""}]}"#
    XCTAssertEqual(
      PageTranscript.cues(Data(json.utf8), fileName: "a.json"),
      [
        .init(start: 0, end: 1, text: "Ana: Hello world."),
        .init(start: 1.2, end: 2, text: "Bo: Hi"),
      ])
    // Without `endTime` a cue lasts until the next starts (the last one: no time at all).
    let noEnds =
      #"{"segments":[{"startTime":0,"body":"First"},{"startTime":0.4,"body":"words."},{"startTime":5,"body":"Later."}]}"#
    XCTAssertEqual(
      PageTranscript.cues(Data(noEnds.utf8), fileName: "a.json"),
      [.init(start: 0, end: 5, text: "First words."), .init(start: 5, end: 5, text: "Later.")])
    XCTAssertEqual(PageTranscript.cues(Data("not json".utf8), fileName: "a.json"), [])
    XCTAssertEqual(PageTranscript.cues(Data("<html>".utf8), fileName: "a.vtt"), [])
    XCTAssertEqual(
      PageTranscript.cues(Data("<p>Hello</p><p>there</p>".utf8), fileName: "a.html"), [])
    // A `.vtt` that holds SRT is read as SRT.
    XCTAssertEqual(
      PageTranscript.cues(Data("1\n00:00:01,000 --> 00:00:02,000\nhi\n".utf8), fileName: "a.vtt"),
      [.init(start: 1, end: 2, text: "hi")])
    XCTAssertTrue(PageTranscript.mayHoldCues(fileName: "a.de.SRT"))
    XCTAssertFalse(PageTranscript.mayHoldCues(fileName: "a.html"))
    XCTAssertFalse(PageTranscript.mayHoldCues(fileName: "a.txt"))
    XCTAssertEqual(
      PageChapters.marks(
        Data(
          #"{"chapters":[{"startTime":60,"title":"B"},{"startTime":0,"title":"A"},{"startTime":30,"toc":false},{"startTime":90,"title":" "}]}"#
            .utf8)),
      [
        .init(start: 0, title: "A"), .init(start: 60, title: "B"),
        .init(start: 90, title: "Chapter"),
      ])
  }
}
