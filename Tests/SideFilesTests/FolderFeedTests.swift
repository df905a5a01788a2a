import Feeds
import Foundation
import Model
import SideFiles
import Store
import StoreTestSupport
import XCTest

/// A podcast folder's own feed: what it says, how its links are made, and when it is written,
/// left alone or removed.
final class FolderFeedTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var show: String { library.paths.episodes + "/Show & Tell" }
  private var feed: FolderFeed { FolderFeed(folder: show) }

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
  }

  private func day(_ number: Int) -> Date {
    Date(timeIntervalSince1970: 1_714_521_600 + Double(number) * 86_400)
  }

  /// A finished download of `name` in the show's folder, with what its feed said.
  @discardableResult
  private func finished(
    _ name: String, archive: ArchivedEpisode?, bytes: Int = 1_234, guidKey: String? = nil,
    title: String = "", published: Date? = nil
  ) throws -> String {
    let file = show + "/" + name
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(count: bytes)))
    try store.seed(
      DownloadRecord(
        url: "https://cdn.example/\(name.hashValue).mp3?token=CDNSECRET",
        podcastTitle: "Show & Tell", episodeTitle: title, state: .done,
        partialPath: "/p/\(name.hashValue).part", file: file, episodeKey: guidKey,
        feedURL: "https://www.patreon.com/rss/show?auth=FEEDSECRET",
        published: published ?? archive?.published, archive: archive?.encoded))
    return file
  }

  private var channel: ArchivedEpisode.Channel {
    ArchivedEpisode.Channel(
      title: "Show & Tell <Live>", author: "Ada \"AL\" Lovelace",
      description: "Notes with a link https://example.com/x?sig=LINKSECRET", language: "de")
  }

  private func text() throws -> String {
    try String(contentsOfFile: feed.path, encoding: .utf8)
  }

  func testEscapingAndAbsoluteLinksRoundTripThroughTheParser() throws {
    try finished(
      "2024-05-02 Tom & Jerry <1> 🎉.mp3",
      archive: ArchivedEpisode(
        guid: "tag:a&b<c>", title: "Tom & Jerry <1> 🎉 \"q\" 'a'", published: day(1),
        showNotes: "<p>Bold &amp; <b>brave</b></p>\u{1}", duration: 3_725, season: 2, number: 7,
        episodeType: "bonus", explicit: true, mimeType: "audio/mpeg", podcast: channel),
      bytes: 4_321)
    let file = try finished(
      "Staffel 1/Café Zürich #2 100%.m4a",
      archive: ArchivedEpisode(
        guid: "g2", title: "Café Zürich", published: day(2), explicit: false,
        mimeType: "audio/x-m4a", podcast: channel))
    let stem = (file as NSString).deletingPathExtension
    for side in [stem + ".vtt", stem + ".de.srt", stem + ".chapters.json"] {
      XCTAssertTrue(FileManager.default.createFile(atPath: side, contents: Data("x".utf8)))
    }
    XCTAssertTrue(FileManager.default.createFile(atPath: show + "/cover.jpg", contents: Data()))
    let base = try FeedBaseURL("https://home.example.net/podcasts")

    XCTAssertEqual(
      try feed.update(store: store, request: FeedRequest(baseURL: base)), .written(entries: 2))

    let text = try text()
    let folderURL = "https://home.example.net/podcasts/Show%20%26%20Tell/"
    XCTAssertTrue(text.contains("<title>Show &amp; Tell &lt;Live&gt;</title>"), text)
    XCTAssertTrue(
      text.contains(
        "<enclosure url=\"\(folderURL)Staffel%201/Caf%C3%A9%20Z%C3%BCrich%20%232%20100%25.m4a\" length=\"1234\" type=\"audio/mp4\"/>"
      ), text)
    XCTAssertTrue(
      text.contains(
        "<podcast:transcript url=\"\(folderURL)Staffel%201/Caf%C3%A9%20Z%C3%BCrich%20%232%20100%25.de.srt\" type=\"application/srt\" language=\"de\"/>"
      ),
      text)
    XCTAssertTrue(text.contains("<itunes:image href=\"\(folderURL)cover.jpg\"/>"), text)
    XCTAssertTrue(
      text.contains("<atom:link href=\"\(folderURL)feed.xml\" rel=\"self\""), text)
    XCTAssertFalse(text.contains("\u{1}"), "a character XML cannot hold is left out")
    for secret in ["FEEDSECRET", "CDNSECRET", "LINKSECRET", "cdn.example", "patreon"] {
      XCTAssertFalse(text.contains(secret), secret)
    }

    let parsed = try FeedParser.parse(Data(text.utf8), baseURL: nil)
    XCTAssertEqual(parsed.podcast.title, "Show & Tell <Live>")
    XCTAssertEqual(parsed.podcast.author, "Ada \"AL\" Lovelace")
    XCTAssertEqual(parsed.podcast.language, "de")
    XCTAssertEqual(parsed.podcast.imageURL, folderURL + "cover.jpg")
    XCTAssertEqual(parsed.episodes.map(\.title), ["Café Zürich", "Tom & Jerry <1> 🎉 \"q\" 'a'"])
    XCTAssertEqual(parsed.episodes.map(\.guid), ["g2", "tag:a&b<c>"])
    XCTAssertEqual(parsed.episodes.map(\.published), [day(2), day(1)])
    let first = parsed.episodes[1]
    XCTAssertEqual(first.duration, 3_725)
    XCTAssertEqual(first.season, 2)
    XCTAssertEqual(first.number, 7)
    XCTAssertEqual(first.episodeType, "bonus")
    XCTAssertEqual(first.explicit, true)
    XCTAssertEqual(first.description, "<p>Bold &amp; <b>brave</b></p>")
    XCTAssertEqual(first.enclosure.length, 4_321)
    XCTAssertEqual(first.enclosure.type, "audio/mpeg")
    XCTAssertEqual(
      first.enclosure.url,
      folderURL + "2024-05-02%20Tom%20%26%20Jerry%20%3C1%3E%20%F0%9F%8E%89.mp3")
    let second = parsed.episodes[0]
    XCTAssertEqual(second.explicit, false)
    XCTAssertEqual(second.transcripts.map(\.type), ["application/srt", "text/vtt"])
    XCTAssertEqual(
      second.chapters?.url,
      folderURL + "Staffel%201/Caf%C3%A9%20Z%C3%BCrich%20%232%20100%25.chapters.json")
    XCTAssertEqual(
      URL(string: second.enclosure.url)?.path,
      "/podcasts/Show & Tell/Staffel 1/Café Zürich #2 100%.m4a", "decodes to the file's path")
  }

  func testWithoutABaseURLLinksAreRelativeToTheFeed() throws {
    try finished(
      "Season 1/Ep 1 & more.mp3",
      archive: ArchivedEpisode(title: "Ep 1", published: day(1), podcast: channel))
    XCTAssertTrue(FileManager.default.createFile(atPath: show + "/cover.png", contents: Data()))

    XCTAssertEqual(try feed.update(store: store, request: FeedRequest()), .written(entries: 1))

    let text = try text()
    XCTAssertTrue(text.contains("<enclosure url=\"Season%201/Ep%201%20%26%20more.mp3\""), text)
    XCTAssertTrue(text.contains("<itunes:image href=\"cover.png\"/>"), text)
    XCTAssertTrue(text.contains("<link>./</link>"), text)
    XCTAssertFalse(text.contains("atom:link"), "no self link without a base URL")
  }

  /// Episodes downloaded before the feed was asked for: what the download rows know.
  func testAnEpisodeWithoutArchiveUsesWhatItsRowKnows() throws {
    try finished(
      "old.mp3", archive: nil, guidKey: "guid:old-guid", title: "Old one", published: day(1))

    XCTAssertEqual(try feed.update(store: store, request: FeedRequest()), .written(entries: 1))

    let written = try text()
    // Relative links, resolved against where the feed is served.
    let parsed = try FeedParser.parse(
      Data(written.utf8), baseURL: "http://h.example/Show%20%26%20Tell/feed.xml")
    XCTAssertEqual(
      parsed.episodes.first?.enclosure.url, "http://h.example/Show%20%26%20Tell/old.mp3")
    XCTAssertEqual(parsed.podcast.title, "Show & Tell")
    XCTAssertEqual(parsed.episodes.first?.title, "Old one", written)
    XCTAssertEqual(parsed.episodes.first?.guid, "old-guid")
    XCTAssertEqual(parsed.episodes.first?.published, day(1))
  }

  func testUntouchedWhenUnchangedKeptWithItsBaseAndRemovedWithTheLastEpisode() throws {
    let first = try finished(
      "one.mp3", archive: ArchivedEpisode(title: "One", published: day(1), podcast: channel))
    let base = try FeedBaseURL("http://192.168.1.5:8080/")
    XCTAssertEqual(
      try feed.update(store: store, request: FeedRequest(baseURL: base)), .written(entries: 1))
    let stamp = try FileManager.default.attributesOfItem(atPath: feed.path)[.modificationDate]
    let inode = try FileManager.default.attributesOfItem(atPath: feed.path)[.systemFileNumber]

    XCTAssertEqual(try feed.update(store: store, request: FeedRequest(baseURL: base)), .unchanged)
    XCTAssertEqual(try feed.update(store: store, request: nil), .unchanged, "same base, read back")
    XCTAssertEqual(
      try FileManager.default.attributesOfItem(atPath: feed.path)[.modificationDate] as? Date,
      stamp as? Date)
    XCTAssertEqual(
      try FileManager.default.attributesOfItem(atPath: feed.path)[.systemFileNumber] as? Int,
      inode as? Int)

    // A run not asked for a feed keeps the one there up to date, with its own base URL.
    try finished(
      "two.mp3", archive: ArchivedEpisode(title: "Two", published: day(2), podcast: channel))
    XCTAssertEqual(try feed.update(store: store, request: nil), .written(entries: 2))
    XCTAssertTrue(try text().contains("http://192.168.1.5:8080/Show%20%26%20Tell/two.mp3"))

    try FileManager.default.removeItem(atPath: first)
    try FileManager.default.removeItem(atPath: show + "/two.mp3")
    XCTAssertEqual(try feed.update(store: store, request: nil), .removed)
    XCTAssertFalse(FileManager.default.fileExists(atPath: feed.path))
    XCTAssertFalse(FileManager.default.fileExists(atPath: show), "the emptied folder goes")
    XCTAssertEqual(try feed.update(store: store, request: nil), .unchanged)
  }

  func testNoFeedUnlessAskedOrAlreadyThere() throws {
    try finished("one.mp3", archive: ArchivedEpisode(title: "One", published: day(1)))

    XCTAssertEqual(try feed.update(store: store, request: nil), .unchanged)
    XCTAssertFalse(FileManager.default.fileExists(atPath: feed.path))
  }

  func testTheListOfFeedsNamesEveryFoldersFeed() throws {
    let one = try finished(
      "one.mp3", archive: ArchivedEpisode(title: "One", published: day(1), podcast: channel))
    let other = library.paths.episodes + "/Other"
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
    XCTAssertTrue(FileManager.default.createFile(atPath: other + "/x.mp3", contents: Data()))
    try store.seed(
      DownloadRecord(
        url: "https://cdn.example/x.mp3", podcastTitle: "Other", episodeTitle: "X", state: .done,
        partialPath: "/p/x.part", file: other + "/x.mp3", published: day(3)))

    let failures = FolderViews.update(
      [
        TouchedFile(
          one, .changed,
          request: FolderRequest(
            feed: FeedRequest(baseURL: try FeedBaseURL("https://h.example/a%20b/")))),
        TouchedFile(other + "/x.mp3", .changed, request: FolderRequest(feed: FeedRequest())),
      ], episodesDirectories: [library.paths.episodes], store: store)

    XCTAssertEqual(failures, [])
    let list = try String(
      contentsOfFile: library.paths.episodes + "/feeds.opml", encoding: .utf8)
    XCTAssertTrue(
      list.contains(
        "text=\"Other\" title=\"Other\" xmlUrl=\"Other/feed.xml\""), list)
    XCTAssertTrue(
      list.contains(
        "text=\"Show &amp; Tell &lt;Live&gt;\" title=\"Show &amp; Tell &lt;Live&gt;\" xmlUrl=\"https://h.example/a%20b/Show%20%26%20Tell/feed.xml\""
      ), list)
    let outlines = try OPMLReader.read(Data(list.utf8))
    XCTAssertEqual(outlines.outlines.count, 2)

    // The last feed gone: the list goes too.
    try FileManager.default.removeItem(atPath: one)
    try FileManager.default.removeItem(atPath: other + "/x.mp3")
    XCTAssertEqual(
      FolderViews.update(
        [TouchedFile(one, .changed), TouchedFile(other + "/x.mp3", .changed)],
        episodesDirectories: [library.paths.episodes], store: store), [])
    XCTAssertFalse(FileManager.default.fileExists(atPath: library.paths.episodes + "/feeds.opml"))
  }

  func testBaseURLsThatWouldLeakOrBreakLinksAreRefused() {
    XCTAssertThrowsError(try FeedBaseURL("https://ada:hunter2@home.example/"))
    XCTAssertThrowsError(try FeedBaseURL("https://home.example/?token=x"))
    XCTAssertThrowsError(try FeedBaseURL("ftp://home.example/"))
    XCTAssertThrowsError(try FeedBaseURL("Episodes/"))
    XCTAssertEqual(try FeedBaseURL("http://127.0.0.1:8080").text, "http://127.0.0.1:8080/")
    let error = (try? FeedBaseURL("https://ada:hunter2@home.example/")) == nil
    XCTAssertTrue(error)
    do {
      _ = try FeedBaseURL("https://ada:hunter2@home.example/")
    } catch {
      XCTAssertFalse(String(describing: error).contains("hunter2"), "the refusal names no secret")
    }
  }
}
