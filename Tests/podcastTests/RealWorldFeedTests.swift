import Foundation
import LoopbackServer
import XCTest

/// Feeds written the way hosts write them, through the binary: tracking URLs with several
/// query parameters, protocol-relative links, relative links in a feed saved to disk.
final class RealWorldFeedTests: XCTestCase {
  private var server: LoopbackServer!
  private var podcast: PodcastBinary!

  override func setUpWithError() throws {
    server = try LoopbackServer()
    podcast = try PodcastBinary()
  }

  override func tearDown() {
    server.stop()
  }

  /// A feed whose one item has this `<enclosure>` url attribute, written as it stands.
  private func serveFeed(enclosureAttribute url: String) -> String {
    let rss = """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0"><channel><title>Tracked Show</title>
      <item><title>Tracked</title><guid>tracked-1</guid>
      <pubDate>Mon, 06 May 2024 10:00:00 GMT</pubDate>
      <enclosure url="\(url)" length="4000" type="audio/mpeg"/></item>
      </channel></rss>
      """
    server.set("/feed.xml", .text(rss, contentType: "application/rss+xml"))
    return server.url("/feed.xml")
  }

  private func enclosureURL(of feed: String) throws -> String? {
    let result = try podcast.run(["episodes", feed, "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let document = try XCTUnwrap(try result.json() as? [String: Any])
    let episode = (document["episodes"] as? [[String: Any]])?.first
    return (episode?["enclosure"] as? [String: Any])?["url"] as? String
  }

  func testEveryQueryParameterOfAnEnclosureReachesTheServer() throws {
    let body = FeedFixture.bytes(4000, seed: 7)
    server.set("/media/default.mp3", .data(body, contentType: "audio/mpeg"))
    let feed = serveFeed(
      enclosureAttribute: server.url("/media/default.mp3")
        + "?aid=rss_feed&amp;awCollectionId=0d8c&#38;awEpisodeId=9f1e&#x26;feed=Zh3r")
    let expected = "aid=rss_feed&awCollectionId=0d8c&awEpisodeId=9f1e&feed=Zh3r"

    XCTAssertEqual(try enclosureURL(of: feed), server.url("/media/default.mp3") + "?" + expected)
    let result = try podcast.run(["download", feed, "1"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(server.requests(for: "/media/default.mp3").map(\.query), [expected])
    let files = podcast.episodeFiles()
    XCTAssertEqual(files.count, 1, "\(files)")
    XCTAssertEqual(
      files.first.flatMap {
        FileManager.default.contents(atPath: podcast.episodesDirectory + "/" + $0)
      },
      body)
  }

  func testARawAmpersandInABrokenFeedStillReachesTheServer() throws {
    server.set("/get.php", .data(FeedFixture.bytes(4000, seed: 8), contentType: "audio/mpeg"))
    let feed = serveFeed(enclosureAttribute: server.url("/get.php") + "?size=10&rate=5&id=7")
    XCTAssertEqual(try podcast.run(["download", feed, "1"]).status, 0)
    XCTAssertEqual(server.requests(for: "/get.php").map(\.query), ["size=10&rate=5&id=7"])
  }

  func testAProtocolRelativeEnclosureTakesTheFeedsScheme() throws {
    server.set("/media/x.mp3", .data(FeedFixture.bytes(4000, seed: 9), contentType: "audio/mpeg"))
    let feed = serveFeed(enclosureAttribute: "//127.0.0.1:\(server.port)/media/x.mp3")
    XCTAssertEqual(try enclosureURL(of: feed), server.url("/media/x.mp3"))
    XCTAssertEqual(try podcast.run(["download", feed, "1"]).status, 0)
    XCTAssertEqual(server.requests(for: "/media/x.mp3").count, 1)
  }

  func testARelativeEnclosureInALocalFeedIsListedAndItsDownloadSaysWhy() throws {
    let path = podcast.library + "/saved feed.xml"
    try """
    <rss version="2.0"><channel><title>Saved</title>
    <item><title>Relative</title><guid>r1</guid><enclosure url="episodes/one.mp3" type="audio/mpeg"/></item>
    </channel></rss>
    """.write(toFile: path, atomically: true, encoding: .utf8)

    XCTAssertEqual(
      try enclosureURL(of: path),
      URL(fileURLWithPath: podcast.library + "/episodes/one.mp3").absoluteString)
    let result = try podcast.run(["download", path, "1"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains("relative link"), result.stderr)
    XCTAssertEqual(podcast.episodeFiles(), [])
  }

  func testPodcastingTwoTranscriptsAndChaptersAreListed() throws {
    let rss = """
      <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel>
      <title>Namespace</title><item><title>Ep</title><guid>p1</guid>
      <enclosure url="https://media.example.com/p1.mp3" type="audio/mpeg"/>
      <podcast:transcript url="https://example.com/ep3/transcript.vtt" type="text/vtt" language="es"/>
      <podcast:transcript url="transcripts/p1.srt?v=1&amp;x=2" type="application/x-subrip" rel="captions"/>
      <podcast:chapters url="https://example.com/ep3_chapters.json" type="application/json+chapters"/>
      </item><item><title>Plain</title><enclosure url="https://media.example.com/p0.mp3"/></item>
      </channel></rss>
      """
    server.set("/ns.xml", .text(rss, contentType: "application/rss+xml"))
    let result = try podcast.run(["episodes", server.url("/ns.xml"), "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let episodes = try result.listedEpisodes()
    let transcripts = try XCTUnwrap(episodes.first?["transcripts"] as? [[String: Any]])
    XCTAssertEqual(
      transcripts.map { $0["url"] as? String },
      [
        "https://example.com/ep3/transcript.vtt", server.url("/transcripts/p1.srt?v=1&x=2"),
      ])
    XCTAssertEqual(transcripts.map { $0["type"] as? String }, ["text/vtt", "application/x-subrip"])
    XCTAssertEqual(transcripts.first?["language"] as? String, "es")
    XCTAssertTrue(transcripts.last?["language"] is NSNull)
    let chapters = try XCTUnwrap(episodes.first?["chapters"] as? [String: Any])
    XCTAssertEqual(chapters["url"] as? String, "https://example.com/ep3_chapters.json")
    XCTAssertEqual(chapters["type"] as? String, "application/json+chapters")
    XCTAssertEqual((episodes.last?["transcripts"] as? [Any])?.count, 0)
    XCTAssertTrue(episodes.last?["chapters"] is NSNull)
  }

  func testShowNotesComeThroughJSONExactlyWhereverTheEscapesFall() throws {
    // The JSON writer skips eight bytes at a time when none needs escaping: put each kind of
    // escape at every offset of such a block, with multi-byte characters around it.
    let specials = ["\"", "\\", "\t", "\n", "\u{1}", "é", "—", "🎙"]
    var expected: [String] = []
    var items = ""
    for offset in 0..<9 {
      for special in specials {
        let notes = String(repeating: "x", count: offset) + special + "<p>ok</p> " + special + "end"
        expected.append(notes)
        let escaped = notes.replacingOccurrences(of: "&", with: "&amp;")
          .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\u{1}", with: "")
        items += """
          <item><title>N\(expected.count)</title><description>\(escaped)</description>
          <enclosure url="https://media.example.com/\(expected.count).mp3"/></item>
          """
      }
    }
    server.set(
      "/notes.xml",
      .text("<rss version=\"2.0\"><channel><title>Notes</title>\(items)</channel></rss>"))
    let result = try podcast.run(["episodes", server.url("/notes.xml"), "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let episodes = try result.listedEpisodes()
    XCTAssertEqual(
      episodes.map { $0["description"] as? String },
      expected.map {
        // A control character XML forbids is dropped; surrounding white space is trimmed.
        $0.replacingOccurrences(of: "\u{1}", with: "").trimmingCharacters(
          in: .whitespacesAndNewlines)
      })
  }

  func testASubscriptionToAFeedFileListsByName() throws {
    let path = podcast.library + "/saved.xml"
    try FeedFixture.rss(
      title: "On Disk", episodes: FeedFixture.episodes(2, size: 10), base: "https://cdn.example"
    ).write(toFile: path, atomically: true, encoding: .utf8)
    XCTAssertEqual(try podcast.run(["subscribe", path, "--name", "disk"]).status, 0)
    let result = try podcast.run(["episodes", "disk"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.hasPrefix("On Disk"), result.stdout)
  }

  func testTheDefaultLibraryIsUnderHOME() throws {
    let feed = serveFeed(enclosureAttribute: server.url("/media/home.mp3"))
    server.set(
      "/media/home.mp3", .data(FeedFixture.bytes(4000, seed: 3), contentType: "audio/mpeg"))
    var binary = podcast!
    binary.environment["PODCAST_LIBRARY"] = nil
    binary.environment["HOME"] = podcast.library + "/home"
    let result = try binary.run(["download", feed, "1"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(
      FileManager.default.fileExists(
        atPath: podcast.library + "/home/Podcasts/Episodes/Tracked Show"),
      result.stdout)
  }

  func testALargeFeedByURLListsWhatTheSameFileDoes() throws {
    // Over 2 MiB a fetched feed waits in a temporary file: gzipped on the wire, with a stray
    // Windows-1252 byte and a raw & so the parser reads it a second time, repairing both.
    var items = ""
    for index in 0..<300 {
      let quirk = index == 299 ? "Q&A \u{FFFD}" : "Episode"
      items += """
        <item><title>\(quirk) \(index)</title><guid>g\(index)</guid>
        <description>\(String(repeating: "notes \(index) ", count: 1_000))</description>
        <enclosure url="https://media.example.com/\(index).mp3?a=1&amp;b=2"/></item>
        """
    }
    var document = Data(
      "<rss version=\"2.0\"><channel><title>Big</title>\(items)</channel></rss>".utf8)
    let marker = Data("\u{FFFD}".utf8)
    if let range = document.range(of: marker) { document.replaceSubrange(range, with: [0x92]) }
    XCTAssertGreaterThan(document.count, 2_500_000)
    let path = podcast.library + "/big.xml"
    try document.write(to: URL(fileURLWithPath: path))
    server.set("/big.xml", Route.data(document, contentType: "application/rss+xml").gzipped())

    func episodes(_ source: String) throws -> [[String: Any]] {
      let result = try podcast.run(["episodes", source, "--json"])
      XCTAssertEqual(result.status, 0, result.stderr)
      return try result.listedEpisodes()
    }
    let byURL = try episodes(server.url("/big.xml"))
    let byFile = try episodes(path)
    XCTAssertEqual(byURL.count, 300)
    XCTAssertEqual(byURL.last?["title"] as? String, "Q&A \u{2019} 299")
    XCTAssertEqual(
      try JSONSerialization.data(withJSONObject: byURL, options: .sortedKeys),
      try JSONSerialization.data(withJSONObject: byFile, options: .sortedKeys))
  }

  func testEveryCommandTakesLibraryBeforeItsName() throws {
    server.set(
      "/search", .text(#"{"resultCount":0,"results":[]}"#, contentType: "application/json"))
    let feed = serveFeed(enclosureAttribute: server.url("/media/none.mp3"))
    let opml = podcast.library + "/in.opml"
    try #"<opml version="2.0"><body><outline type="rss" xmlUrl="\#(feed)"/></body></opml>"#
      .write(toFile: opml, atomically: true, encoding: .utf8)
    var binary = podcast!
    binary.environment["PODCAST_ITUNES_URL"] = server.baseURL
    let elsewhere = podcast.library + "/aliased"
    let commands: [[String]] = [
      ["search", "cars"], ["episodes", feed], ["subscribe", feed, "--name", "show"],
      ["subscriptions"], ["status"], ["export"], ["import", opml], ["sync", "--dry-run"],
      ["unsubscribe", "show"],
    ]
    for command in commands {
      let result = try binary.run(["--library", elsewhere] + command)
      XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere + "/.podcast"))
  }
}
