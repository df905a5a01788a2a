import FeedsTestSupport
import Foundation
import XCTest

@testable import Feeds

/// Feeds as hosts really write them, each case modelled on a real feed: query strings with
/// `&amp;` (Simplecast, Podtrac, Patreon), a stray `&` in a hand-written feed, protocol-relative
/// links (Libsyn), cover art as a second enclosure, Dublin Core dates, Atom 0.3, odd case.
final class FeedWorldQuirksTests: XCTestCase {
  typealias S = FeedTestSupport

  // MARK: - Attribute values exactly as XML means them

  func testEscapedAmpersandsInEnclosureAndImageURLsAreDecoded() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>Tracked</title><guid>t1</guid>
        <itunes:image href="https://img.example.com/ep.jpg?w=3000&amp;h=3000"/>
        <enclosure url="https://chrt.fm/track/G4A/dts.podtrac.com/redirect.mp3/cdn.simplecast.com/audio/ab/default.mp3?aid=rss_feed&amp;awCollectionId=0d8c&amp;awEpisodeId=9f1e&amp;feed=Zh3r" length="34216" type="audio/mpeg"/>
        </item>
        <item><title>Numeric</title><guid>t2</guid>
        <enclosure url="https://c10.patreonusercontent.com/4/patreon-media/p/post/1/2.mp3?token-time=1700000000&#38;token-hash=abc%3D&#x26;v=1" type="audio/mpeg"/>
        </item>
        """,
        channelExtras: #"<itunes:image href="https://img.example.com/show.jpg?a=1&amp;b=2"/>"#))

    XCTAssertEqual(feed.podcast.imageURL, "https://img.example.com/show.jpg?a=1&b=2")
    XCTAssertEqual(
      feed.episodes.map(\.enclosure.url),
      [
        "https://chrt.fm/track/G4A/dts.podtrac.com/redirect.mp3/cdn.simplecast.com/audio/ab/default.mp3?aid=rss_feed&awCollectionId=0d8c&awEpisodeId=9f1e&feed=Zh3r",
        "https://c10.patreonusercontent.com/4/patreon-media/p/post/1/2.mp3?token-time=1700000000&token-hash=abc%3D&v=1",
      ])
    XCTAssertEqual(feed.episodes.first?.imageURL, "https://img.example.com/ep.jpg?w=3000&h=3000")
  }

  func testAnEscapedReferenceStaysLiteralAfterDecoding() throws {
    // `&amp;#38;` is the five characters "&#38;": one decoding pass, not two.
    let feed = try S.parse(
      S.rss(
        #"<item><title>Literal</title><enclosure url="https://a.example.com/x.mp3?q=&amp;#38;&amp;lt;" type="audio/mpeg"/></item>"#
      ))
    XCTAssertEqual(feed.episodes.first?.enclosure.url, "https://a.example.com/x.mp3?q=&#38;&lt;")
  }

  func testRawAmpersandsInABrokenFeedSurvive() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>Q&A with AT&T & friends</title><guid>raw-1</guid>
        <enclosure url="https://media.example.com/get.php?size=10&rate=5&id=7" length="99" type="audio/mpeg"/>
        </item>
        """))
    let episode = try XCTUnwrap(feed.episodes.first)
    XCTAssertEqual(episode.title, "Q&A with AT&T & friends")
    XCTAssertEqual(episode.enclosure.url, "https://media.example.com/get.php?size=10&rate=5&id=7")
  }

  func testHTMLEntitiesInAttributesAndTextBecomeTheirCharacters() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>Caf&eacute;&nbsp;Talk</title>
        <enclosure url="https://media.example.com/caf&eacute;.mp3?a=1&b=2" type="audio/mpeg"/>
        </item>
        """))
    let episode = try XCTUnwrap(feed.episodes.first)
    XCTAssertEqual(episode.title, "Café\u{A0}Talk")
    XCTAssertEqual(episode.enclosure.url, "https://media.example.com/café.mp3?a=1&b=2")
  }

  func testTheRepairLeavesCDATAAndCommentsAlone() throws {
    let feed = try S.parse(
      S.rss(
        """
        <!-- R&D notes: &bogus -->
        <item><title><![CDATA[Tips & tricks: &amp; is an escape]]></title>
        <description>Broken & unescaped</description>
        <enclosure url="https://media.example.com/tips.mp3" type="audio/mpeg"/>
        </item>
        """))
    let episode = try XCTUnwrap(feed.episodes.first)
    XCTAssertEqual(episode.title, "Tips & tricks: &amp; is an escape")
    XCTAssertEqual(episode.description, "Broken & unescaped")
  }

  func testTheRepairSeesReferencesCutAcrossChunks() throws {
    // The parser reads 64 KiB at a time: put a raw `&` and an entity across every boundary
    // position of a short document by feeding it byte-split through the repair directly.
    let text = #"<a href="x?p=1&q=2&amp;r=&eacute;&#38;s"><![CDATA[&x]]><!--&y-->&z</a>"#
    let expected = #"<a href="x?p=1&amp;q=2&amp;r=&#233;&#38;s"><![CDATA[&x]]><!--&y-->&amp;z</a>"#
    let bytes = Array(text.utf8)
    for split in 0...bytes.count {
      var repair = AmpersandRepair()
      var output = bytes[..<split].withUnsafeBytes { repair.repair($0, isLast: false) }
      output += bytes[split...].withUnsafeBytes { repair.repair($0, isLast: true) }
      XCTAssertEqual(String(decoding: output, as: UTF8.self), expected, "split at \(split)")
    }
  }

  // MARK: - Relative and protocol-relative URLs

  func testProtocolRelativeAndRelativeURLsResolveAgainstTheFeedURL() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>Libsyn</title><enclosure url="//traffic.libsyn.com/show/ep1.mp3?dest-id=1" type="audio/mpeg"/></item>
        <item><title>Relative</title><enclosure url="media/ep2.mp3" type="audio/mpeg"/></item>
        <item xml:base="https://cdn.example.org/pod/"><title>Based</title><enclosure url="ep3.mp3" type="audio/mpeg"/></item>
        """),
      baseURL: "https://feeds.example.com/shows/feed.xml")
    XCTAssertEqual(
      feed.episodes.map(\.enclosure.url),
      [
        "https://traffic.libsyn.com/show/ep1.mp3?dest-id=1",
        "https://feeds.example.com/shows/media/ep2.mp3",
        "https://cdn.example.org/pod/ep3.mp3",
      ])
  }

  /// Found by `make fuzz`: a feed from the web whose `xml:base` names a file URL listed
  /// `file:ep1.mp3` as an episode. Only a feed read from a file may point links at files; in a
  /// web feed such a base is ignored, for every link below it.
  func testAFileXMLBaseInAWebFeedListsNoFileURLs() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item xml:base="file:/etc/"><title>Sneaky</title><enclosure url="passwd" type="audio/mpeg"/></item>
        <item xml:base="file:le"><title>Fuzzed</title><enclosure url="ep1.mp3?aid=r" type="audio/mpeg"/></item>
        <item><title>Plain</title><enclosure url="media/ep3.mp3" type="audio/mpeg"/></item>
        <item xml:base="file:/home/"><title>Side files</title><link>me</link>
        <itunes:image href="art.jpg"/><podcast:transcript url="t.vtt" type="text/vtt"/>
        <enclosure url="https://cdn.example.com/ep4.mp3" type="audio/mpeg"/></item>
        """),
      baseURL: "https://feeds.example.com/shows/feed.xml")
    // The file base is ignored, as if it were not there: links resolve against the feed.
    XCTAssertEqual(
      feed.episodes.map(\.enclosure.url),
      [
        "https://feeds.example.com/shows/passwd", "https://feeds.example.com/shows/ep1.mp3?aid=r",
        "https://feeds.example.com/shows/media/ep3.mp3", "https://cdn.example.com/ep4.mp3",
      ])
    XCTAssertFalse(feed.episodes.contains { FeedURL.isFileURL($0.enclosure.url) })
    // Not only enclosures: no link of the feed points at a file.
    let last = try XCTUnwrap(feed.episodes.last)
    XCTAssertEqual(last.link, "https://feeds.example.com/shows/me")
    XCTAssertEqual(last.imageURL, "https://feeds.example.com/shows/art.jpg")
    XCTAssertEqual(last.transcripts.map(\.url), ["https://feeds.example.com/shows/t.vtt"])
  }

  // MARK: - The enclosure that is the episode

  func testTheAudioEnclosureWinsOverCoverArtInEitherOrder() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>Image first</title><guid>a</guid>
        <enclosure url="https://img.example.com/a.jpg" length="5000" type="image/jpeg"/>
        <enclosure url="https://media.example.com/a.mp3" length="9000" type="audio/mpeg"/></item>
        <item><title>Audio first</title><guid>b</guid>
        <enclosure url="https://media.example.com/b.m4a" length="9000" type="audio/x-m4a"/>
        <enclosure url="https://img.example.com/b.png" type="image/png"/></item>
        <item><title>Untyped</title><guid>c</guid>
        <enclosure url="https://img.example.com/c.jpg"/>
        <enclosure url="https://media.example.com/c.mp3?x=1"/></item>
        """))
    XCTAssertEqual(
      feed.episodes.map(\.enclosure.url),
      [
        "https://media.example.com/a.mp3", "https://media.example.com/b.m4a",
        "https://media.example.com/c.mp3?x=1",
      ])
    XCTAssertEqual(feed.episodes.first?.enclosure.length, 9000)
  }

  func testAMediaContentImageIsNeverAnEpisode() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>Blog post</title>
        <media:content url="https://blog.example.com/header.png" medium="image"/></item>
        <item><title>Grouped</title>
        <media:group>
          <media:content url="https://img.example.com/thumb.jpg" medium="image" type="image/jpeg"/>
          <media:content url="https://media.example.com/show.opus" medium="audio"/>
        </media:group></item>
        """))
    XCTAssertEqual(feed.episodes.map(\.title), ["Grouped"])
    XCTAssertEqual(feed.episodes.first?.enclosure.url, "https://media.example.com/show.opus")
  }

  // MARK: - Fallbacks real feeds rely on

  func testDublinCoreTitleAndDateStandInForMissingOnes() throws {
    let feed = try FeedParser.parse(
      Data(
        """
        <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
        <dc:title>DC Show</dc:title>
        <item><dc:title>Only DC</dc:title><dc:date>2023-02-03T04:05:06Z</dc:date>
        <enclosure url="https://media.example.com/dc.mp3" type="audio/mpeg"/></item>
        </channel></rss>
        """.utf8), baseURL: S.base)
    XCTAssertEqual(feed.podcast.title, "DC Show")
    XCTAssertEqual(feed.episodes.first?.title, "Only DC")
    XCTAssertEqual(feed.episodes.first?.published, S.utc("2023-02-03T04:05:06Z"))
  }

  func testAtomPublishedWinsOverUpdatedWhateverTheOrder() throws {
    let feed = try S.parse(
      """
      <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom</title>
      <entry><title>Edited later</title><id>e1</id>
      <updated>2024-03-01T00:00:00Z</updated><published>2024-01-01T00:00:00Z</published>
      <link rel="enclosure" href="https://media.example.com/e1.mp3" type="audio/mpeg"/></entry>
      </feed>
      """)
    XCTAssertEqual(feed.episodes.first?.published, S.utc("2024-01-01T00:00:00Z"))
  }

  func testAtom03IssuedAndModified() throws {
    let feed = try S.parse(
      """
      <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>Old Atom</title>
      <entry><title>Issued</title><modified>2005-06-01T00:00:00Z</modified>
      <issued>2005-05-01T00:00:00Z</issued>
      <link rel="enclosure" href="https://media.example.com/old.mp3" type="audio/mpeg"/></entry>
      </feed>
      """)
    XCTAssertEqual(feed.podcast.title, "Old Atom")
    XCTAssertEqual(feed.episodes.first?.published, S.utc("2005-05-01T00:00:00Z"))
  }

  func testABareFeedWithoutTheAtomNamespaceIsReadAsAtom() throws {
    let feed = try S.parse(
      """
      <feed><title type="text">dive into mark</title>
      <entry><title>Atom draft-07 snapshot</title><id>tag:example.org,2003:3.2397</id>
      <updated>2005-07-31T12:29:29Z</updated><published>2003-12-13T08:29:29-04:00</published>
      <link rel="enclosure" type="audio/mpeg" length="1337" href="http://example.org/audio/ph34r_my_podcast.mp3"/>
      </entry></feed>
      """)
    XCTAssertEqual(feed.podcast.title, "dive into mark")
    let episode = try XCTUnwrap(feed.episodes.first)
    XCTAssertEqual(episode.enclosure.url, "http://example.org/audio/ph34r_my_podcast.mp3")
    XCTAssertEqual(episode.enclosure.length, 1337)
    XCTAssertEqual(episode.published, S.utc("2003-12-13T12:29:29Z"))
  }

  func testITunesImageURLAttributeAndOldLinkRelImage() throws {
    let withURL = try S.parse(
      S.rss(
        S.item("One", extra: #"<itunes:image url="https://img.example.com/one.jpg"/>"#),
        channelExtras: #"<itunes:image url="https://img.example.com/show.jpg"/>"#))
    XCTAssertEqual(withURL.podcast.imageURL, "https://img.example.com/show.jpg")
    XCTAssertEqual(withURL.episodes.first?.imageURL, "https://img.example.com/one.jpg")

    let withLink = try S.parse(
      S.rss(
        S.item("Two"),
        channelExtras:
          #"<itunes:link rel="image" href="http://example.com/logo.jpg"></itunes:link>"#
      ))
    XCTAssertEqual(withLink.podcast.imageURL, "http://example.com/logo.jpg")
  }

  func testAPermalinkGuidIsTheLinkWhenThereIsNone() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>Permalink</title><guid>https://show.example.com/ep/1</guid>
        <pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate>
        <enclosure url="https://media.example.com/1.mp3" type="audio/mpeg"/></item>
        <item><title>Relative</title><guid isPermaLink="true">ep/2/</guid>
        <pubDate>Sun, 31 Dec 2023 10:00:00 GMT</pubDate>
        <enclosure url="https://media.example.com/2.mp3" type="audio/mpeg"/></item>
        <item><title>Not a permalink</title><guid isPermaLink="false">https://x.example.com/3</guid>
        <pubDate>Sat, 30 Dec 2023 10:00:00 GMT</pubDate>
        <enclosure url="https://media.example.com/3.mp3" type="audio/mpeg"/></item>
        <item><title>Own link</title><link>https://show.example.com/four</link>
        <guid>https://show.example.com/ep/4</guid><pubDate>Fri, 29 Dec 2023 10:00:00 GMT</pubDate>
        <enclosure url="https://media.example.com/4.mp3" type="audio/mpeg"/></item>
        """), baseURL: "https://show.example.com/feed.xml")
    XCTAssertEqual(
      feed.episodes.map(\.link),
      [
        "https://show.example.com/ep/1", "https://show.example.com/ep/2/", nil,
        "https://show.example.com/four",
      ])
    XCTAssertEqual(feed.episodes[safe: 1]?.guid, "ep/2/", "the guid itself stays as written")
  }

  /// Most Podcasting 2.0 feeds in the wild (and the namespace's own early examples) declare it
  /// by its GitHub documentation URL, not podcastindex.org's: modelled on a real show that lists
  /// captions in two formats, SRT first, and chapters on every episode.
  func testThePodcastNamespaceByItsGitHubURLGivesTranscriptsAndChapters() throws {
    let feed = try S.parse(
      """
      <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" \
      xmlns:podcast="https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md" \
      version="2.0"><channel><title>Variety Hour</title>
      <podcast:locked owner="host@example.com">no</podcast:locked>
      <item><title>Fifty</title><guid isPermaLink="false">vh-050</guid>
      <enclosure url="https://cdn.example.com/vh050.mp3" length="100" type="audio/mpeg"/>
      <podcast:transcript url="https://cdn.example.com/vh050-transcript.srt" \
      type="application/x-subrip" language="EN" rel="captions"/>
      <podcast:transcript url="https://cdn.example.com/vh050-transcript.vtt" \
      type="text/vtt" language="EN" rel="captions"/>
      <podcast:chapters url="https://cdn.example.com/vh050-chapters.json" \
      type="application/json+chapters"/>
      </item></channel></rss>
      """)
    let episode = try XCTUnwrap(feed.episodes.first)
    XCTAssertEqual(
      episode.transcripts,
      [
        Transcript(
          url: "https://cdn.example.com/vh050-transcript.srt", type: "application/x-subrip",
          language: "EN"),
        Transcript(
          url: "https://cdn.example.com/vh050-transcript.vtt", type: "text/vtt", language: "EN"),
      ])
    XCTAssertEqual(episode.chapters?.url, "https://cdn.example.com/vh050-chapters.json")
    XCTAssertEqual(episode.chapters?.type, "application/json+chapters")
  }

  func testElementNamesInOddCase() throws {
    let feed = try S.parse(
      """
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/DTDs/Podcast-1.0.dtd"><channel>
      <TiTlE>Example title</TiTlE>
      <ITEM><Title>Shouting</Title><PUBDATE>Tue, 02 Jan 2024 10:00:00 GMT</PUBDATE>
      <itunes:DURATION>1:00</itunes:DURATION>
      <Enclosure URL="https://media.example.com/loud.mp3" url="https://media.example.com/loud.mp3" type="audio/mpeg"/></ITEM>
      </channel></rss>
      """)
    XCTAssertEqual(feed.podcast.title, "Example title")
    let episode = try XCTUnwrap(feed.episodes.first)
    XCTAssertEqual(episode.title, "Shouting")
    XCTAssertEqual(episode.published, S.utc("2024-01-02T10:00:00Z"))
    XCTAssertEqual(episode.duration, 60)
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}

/// A large archive's show notes wait in a temporary file; what comes back must be exact.
final class ShowNotesSpoolTests: XCTestCase {
  func testShowNotesOfALargeFeedComeBackExactly() throws {
    let count = 400
    let notes = (0..<count).map { index in
      "<p>Episode \(index) — \"notes\" & more</p>"
        + String(repeating: "é\(index % 10)", count: 15_000)
    }
    let items = notes.enumerated().map { index, text in
      """
      <item><title>E\(index)</title><pubDate>\(FeedWorldQuirksTests.date(daysBefore: index))</pubDate>
      <content:encoded><![CDATA[\(text)]]></content:encoded>
      <enclosure url="https://media.example.com/\(index).mp3" type="audio/mpeg"/></item>
      """
    }
    let xml = FeedTestSupport.rss(items.joined(separator: "\n"))
    XCTAssertGreaterThan(xml.utf8.count, FeedBuilder.inlineNotesLimit, "enough to spool")

    let feed = try FeedTestSupport.parse(xml)
    XCTAssertEqual(feed.episodes.count, count)
    XCTAssertEqual(feed.episodes.map(\.description), notes)
  }

  /// Reading back maps the file; notes written after a read (the file grew past the mapping)
  /// and notes still in the write buffer must come back exactly too.
  func testNotesReadBetweenWritesComeBackExactly() throws {
    let spool = try XCTUnwrap(ShowNotesSpool())
    var written: [(Range<Int>, [UInt8])] = []
    func add(_ count: Int) throws {
      for _ in 0..<count {
        let index = written.count
        let bytes =
          Array("notes \(index) ".utf8) + [UInt8](repeating: UInt8(index % 251), count: 70_000)
        written.append((try XCTUnwrap(bytes.withUnsafeBufferPointer(spool.append)), bytes))
      }
    }
    try add(40)
    XCTAssertEqual(spool.read(written[3].0), written[3].1)
    try add(40)
    for (range, bytes) in written.reversed() {
      XCTAssertEqual(spool.read(range), bytes)
    }
  }
}

extension FeedWorldQuirksTests {
  /// An RFC 822 date `days` before 2024-06-01, so items are newest first.
  static func date(daysBefore days: Int) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(
      from: Date(timeIntervalSince1970: 1_717_200_000 - Double(days) * 86_400))
  }
}
