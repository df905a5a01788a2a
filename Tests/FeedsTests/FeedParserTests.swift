import Feeds
import FeedsTestSupport
import Foundation
import XCTest

/// What a user sees from a feed: the right episodes, in the right order, with the right facts.
final class FeedParserTests: XCTestCase {
  typealias S = FeedTestSupport

  func testRSSPodcastFileGivesChannelAndEpisodesNewestFirst() throws {
    let path = try S.fixtureURL("podcast-rss.xml").path
    let feed = try FeedParser.parse(
      contentsOfFile: path, baseURL: "https://feeds.example.com/shell.xml")

    XCTAssertEqual(feed.podcast.title, "Shell Stories")
    XCTAssertEqual(feed.podcast.author, "Ada & Grace")
    XCTAssertEqual(feed.podcast.link, "https://shell.example.com/")
    XCTAssertEqual(feed.podcast.language, "en-us")
    XCTAssertEqual(feed.podcast.imageURL, "https://shell.example.com/art.jpg")
    XCTAssertEqual(feed.podcast.newFeedURL, "https://new.example.com/shell.xml")
    XCTAssertEqual(feed.podcast.podcastGUID, "917393e3-1b1e-5cef-ace4-edaa54e1f810")
    XCTAssertEqual(feed.podcast.feedURL, "https://feeds.example.com/shell.xml")

    XCTAssertEqual(feed.episodes.map(\.title), ["Episode 2: Signals", "Episode 1: Pipes"])
    let second = feed.episodes[0]
    XCTAssertNil(second.enclosure.length, "an empty length means unknown")
    XCTAssertEqual(second.duration, 45 * 60 + 30)
    XCTAssertEqual(second.explicit, true)
    XCTAssertEqual(second.episodeType, "bonus")

    let first = feed.episodes[1]
    XCTAssertEqual(first.guid, "shell-001")
    XCTAssertEqual(first.published, S.utc("2020-01-06T10:00:00Z"))
    XCTAssertEqual(first.duration, 3723)
    XCTAssertEqual(
      first.enclosure,
      Enclosure(
        url: "https://media.example.com/shell-001.mp3", length: 12_216_320, type: "audio/mpeg"))
    XCTAssertEqual(first.link, "https://shell.example.com/1")
    XCTAssertEqual(
      first.description, "<p>All about <b>pipes</b>.</p>", "content:encoded wins over description")
    XCTAssertEqual(first.season, 1)
    XCTAssertEqual(first.number, 1)
    XCTAssertEqual(first.episodeType, "full")
    XCTAssertEqual(first.explicit, false)
    XCTAssertEqual(first.imageURL, "https://shell.example.com/ep1.jpg")
    XCTAssertEqual(
      first.transcripts.map(\.url),
      ["https://shell.example.com/1.vtt", "https://shell.example.com/1.srt"])
    XCTAssertEqual(first.chapters?.url, "https://shell.example.com/1.json")
  }

  func testAtomFeedWithEnclosureLinksAndXMLBase() throws {
    let data = try Data(contentsOf: S.fixtureURL("podcast-atom.xml"))
    let feed = try FeedParser.parse(data, baseURL: "https://elsewhere.example.net/feed")

    XCTAssertEqual(feed.podcast.title, "Atom Hour")
    XCTAssertEqual(feed.podcast.author, "Tim Bray")
    XCTAssertEqual(feed.podcast.description, "An Atom-only podcast")
    XCTAssertEqual(feed.podcast.link, "https://atom.example.org/")
    XCTAssertEqual(feed.podcast.imageURL, "https://atom.example.org/show/logo.png")
    XCTAssertEqual(feed.episodes.count, 2, "the entry without an enclosure link is not an episode")

    let newer = feed.episodes[0]
    XCTAssertEqual(newer.title, "Newer <entry>")
    XCTAssertEqual(newer.guid, "urn:uuid:2")
    XCTAssertEqual(newer.published, S.utc("2024-05-01T10:00:00Z"))
    XCTAssertEqual(newer.description, "<p>Full notes</p>")
    XCTAssertEqual(newer.link, "https://atom.example.org/newer.html")

    let older = feed.episodes[1]
    XCTAssertEqual(older.published, S.utc("2024-04-01T06:30:00Z"), "published wins over updated")
    XCTAssertEqual(
      older.enclosure,
      Enclosure(
        url: "https://atom.example.org/show/audio/older.m4a", length: 2048, type: "audio/mp4"))
    XCTAssertEqual(older.link, "https://atom.example.org/show/older.html")
    XCTAssertEqual(older.description, "Short summary")
  }

  func testItemsWithoutMediaAreNotEpisodes() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>Text post</title><description>no audio</description></item>
        \(S.item("Real"))
        <item><title>Empty enclosure</title><enclosure url="" type="audio/mpeg"/></item>
        """))
    XCTAssertEqual(feed.episodes.map(\.title), ["Real"])
  }

  func testEnclosuresOutsideHTTPAreNotEpisodes() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>File</title><enclosure url="file:///etc/passwd" type="audio/mpeg"/></item>
        <item><title>FTP</title><enclosure url="ftp://example.com/a.mp3" type="audio/mpeg"/></item>
        <item><title>JS</title><enclosure url="javascript:alert(1)" type="audio/mpeg"/></item>
        <item><title>Web</title><enclosure url="HTTPS://example.com/a.mp3" type="audio/mpeg"/></item>
        """))
    XCTAssertEqual(feed.episodes.map(\.title), ["Web"])
  }

  func testChannelWithoutEpisodesIsNotAnError() throws {
    let feed = try S.parse(S.rss(""))
    XCTAssertEqual(feed.podcast.title, "Test Show")
    XCTAssertEqual(feed.episodes, [])
  }

  func testNewestFirstWithUndatedEpisodesLastInFeedOrder() throws {
    let feed = try S.parse(
      S.rss(
        """
        \(S.item("Undated A"))
        \(S.item("Old", date: "Sat, 01 Jan 2022 00:00:00 GMT"))
        \(S.item("Undated B", date: "not a date"))
        \(S.item("New", date: "Sun, 01 Jan 2023 00:00:00 GMT"))
        \(S.item("Middle", date: "2022-06-01T00:00:00Z"))
        """))
    XCTAssertEqual(feed.episodes.map(\.title), ["New", "Middle", "Old", "Undated A", "Undated B"])
  }

  func testEpisodesWithTheSameDateKeepFeedOrderWhetherOrNotTheFeedIsSorted() throws {
    let sameDay = "Sat, 01 Jan 2022 00:00:00 GMT"
    let sorted = try S.parse(
      S.rss(
        """
        \(S.item("A", date: sameDay))
        \(S.item("B", date: sameDay))
        \(S.item("Older", date: "Fri, 31 Dec 2021 00:00:00 GMT"))
        \(S.item("Undated"))
        """))
    XCTAssertEqual(sorted.episodes.map(\.title), ["A", "B", "Older", "Undated"])
    let unsorted = try S.parse(
      S.rss(
        """
        \(S.item("Older", date: "Fri, 31 Dec 2021 00:00:00 GMT"))
        \(S.item("A", date: sameDay))
        \(S.item("Undated"))
        \(S.item("B", date: sameDay))
        """))
    XCTAssertEqual(unsorted.episodes.map(\.title), ["A", "B", "Older", "Undated"])
  }

  func testDuplicateGUIDsKeepBothEpisodes() throws {
    let feed = try S.parse(
      S.rss(
        """
        \(S.item("First", date: "Sat, 01 Jan 2022 00:00:00 GMT", extra: "<guid>same</guid>"))
        \(S.item("Second", date: "Sun, 02 Jan 2022 00:00:00 GMT", extra: "<guid>same</guid>"))
        """))
    XCTAssertEqual(feed.episodes.map(\.guid), ["same", "same"])
    XCTAssertNotEqual(feed.episodes[0].enclosure.url, feed.episodes[1].enclosure.url)
  }

  /// A permalink guid written as a path is the episode's page, resolved like any other link;
  /// an opaque id is not, and neither guid changes (it is the episode's identity).
  func testARelativePermalinkGUIDResolvesAndAnOpaqueOneDoesNot() throws {
    let feed = try S.parse(
      S.rss(
        """
        \(S.item("Path", date: "Sun, 02 Jan 2022 00:00:00 GMT", extra: "<guid>episode/1/</guid>"))
        <item xml:base="https://other.example/base/"><title>Based</title>
        <pubDate>Sat, 01 Jan 2022 00:00:00 GMT</pubDate>
        <enclosure url="https://media.example.com/b.mp3" type="audio/mpeg"/>
        <guid isPermaLink="true">../episode/2</guid></item>
        \(S.item("Opaque", date: "Fri, 31 Dec 2021 00:00:00 GMT",
          extra: "<guid isPermaLink=\"true\">7bd204c6-1655-4c27-aeee-53f933c5395f</guid>"))
        \(S.item("Not", date: "Thu, 30 Dec 2021 00:00:00 GMT",
          extra: "<guid isPermaLink=\"false\">episode/4/</guid>"))
        \(S.item("Tag", date: "Wed, 29 Dec 2021 00:00:00 GMT",
          extra: "<guid>tag:example.com,2005:/ep/5</guid>"))
        """))
    XCTAssertEqual(
      feed.episodes.map(\.link),
      ["https://example.com/shows/episode/1/", "https://other.example/episode/2", nil, nil, nil])
    XCTAssertEqual(
      feed.episodes.map(\.guid),
      [
        "episode/1/", "../episode/2", "7bd204c6-1655-4c27-aeee-53f933c5395f", "episode/4/",
        "tag:example.com,2005:/ep/5",
      ])
  }

  func testRelativeURLsResolveAgainstFeedURLAndXMLBase() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>Relative</title><link>/episodes/1</link>
          <enclosure url="media/1.mp3" type="audio/mpeg"/></item>
        <item xml:base="https://cdn.example.net/audio/"><title>Based</title>
          <enclosure url="2.mp3" type="audio/mpeg"/></item>
        """), baseURL: "https://example.com/shows/feed.xml")
    let byTitle = Dictionary(uniqueKeysWithValues: feed.episodes.map { ($0.title ?? "", $0) })
    XCTAssertEqual(byTitle["Relative"]?.enclosure.url, "https://example.com/shows/media/1.mp3")
    XCTAssertEqual(byTitle["Relative"]?.link, "https://example.com/episodes/1")
    XCTAssertEqual(byTitle["Based"]?.enclosure.url, "https://cdn.example.net/audio/2.mp3")
  }

  func testRelativeEnclosureWithoutBaseURLIsNotAnEpisode() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>Relative</title><enclosure url="media/1.mp3" type="audio/mpeg"/></item>
        """), baseURL: nil)
    XCTAssertEqual(feed.episodes, [])
  }

  func testHTMLNamedEntitiesBecomeText() throws {
    let feed = try S.parse(S.rss(S.item("Caf&eacute;&nbsp;Talk &mdash; R&amp;D &hellip;")))
    XCTAssertEqual(feed.episodes.first?.title, "Café\u{00A0}Talk — R&D …")
  }

  func testBareAmpersandDoesNotLoseTheRestOfTheFeed() throws {
    let feed = try S.parse(
      S.rss(
        """
        \(S.item("Q & A", date: "Sat, 01 Jan 2022 00:00:00 GMT"))
        \(S.item("Tom &amp; Jerry &eacute;t&eacute;", date: "Fri, 31 Dec 2021 00:00:00 GMT"))
        """))
    XCTAssertEqual(feed.episodes.count, 2)
    XCTAssertEqual(
      feed.episodes[1].title, "Tom & Jerry été", "entities after a recovered error still resolve")
  }

  func testMediaContentIsUsedWhenThereIsNoEnclosure() throws {
    let feed = try S.parse(
      S.rss(
        """
        <item><title>Media</title><pubDate>Sun, 02 Jan 2022 00:00:00 GMT</pubDate>
          <media:content url="https://cdn.example.com/m.mp3" fileSize="5000" type="audio/mpeg"/></item>
        <item><title>Group</title><pubDate>Sat, 01 Jan 2022 00:00:00 GMT</pubDate>
          <media:group><media:content url="https://cdn.example.com/g.m4a" type="audio/mp4"/></media:group></item>
        <item><title>Both</title><pubDate>Fri, 31 Dec 2021 00:00:00 GMT</pubDate>
          <media:content url="https://cdn.example.com/ignored.mp3" type="audio/mpeg"/>
          <enclosure url="https://cdn.example.com/preferred.mp3" type="audio/mpeg"/></item>
        """))
    XCTAssertEqual(
      feed.episodes.map(\.enclosure.url),
      [
        "https://cdn.example.com/m.mp3", "https://cdn.example.com/g.m4a",
        "https://cdn.example.com/preferred.mp3",
      ])
    XCTAssertEqual(feed.episodes[0].enclosure.length, 5000)
  }

  func testNamespacesMatchByURIIncludingWrongCaseITunesURI() throws {
    let xml = """
      <rss version="2.0" xmlns:it="http://www.itunes.com/DTDs/Podcast-1.0.dtd"
        xmlns:itunes="http://example.com/not-itunes">
      <channel><title>T</title>
      <item><title>A</title><enclosure url="https://e.com/a.mp3"/>
        <it:duration>90</it:duration><itunes:episode>7</itunes:episode></item>
      </channel></rss>
      """
    let episode = try XCTUnwrap(S.parse(xml).episodes.first)
    XCTAssertEqual(episode.duration, 90, "any prefix bound to the iTunes URI counts")
    XCTAssertNil(episode.number, "the itunes prefix bound to another URI is not iTunes")
  }

  func testUndeclaredITunesPrefixIsStillRead() throws {
    let xml = """
      <rss version="2.0"><channel><title>T</title>
      <item><title>A</title><enclosure url="https://e.com/a.mp3"/><itunes:duration>61</itunes:duration></item>
      </channel></rss>
      """
    XCTAssertEqual(try S.parse(xml).episodes.first?.duration, 61)
  }

  func testExplicitFlagSpellings() throws {
    let values =
      [
        "yes": true, "no": false, "true": true, "false": false, "clean": false, "Explicit": true,
        "maybe": nil,
      ] as [String: Bool?]
    for (text, expected) in values {
      let feed = try S.parse(
        S.rss(S.item("A", extra: "<itunes:explicit>\(text)</itunes:explicit>")))
      XCTAssertEqual(feed.episodes.first?.explicit, expected, text)
    }
  }

  func testDescriptionFallsBackToITunesSummary() throws {
    let feed = try S.parse(
      S.rss(S.item("A", extra: "<itunes:summary>Only summary</itunes:summary>")))
    XCTAssertEqual(feed.episodes.first?.description, "Only summary")
  }

  /// Show notes in any order: content:encoded wins wherever it stands, then the description
  /// (a blank one does not count), then itunes:summary; each item keeps its own.
  func testShowNotesPreferContentThenDescriptionThenSummaryInAnyOrder() throws {
    let items = [
      S.item("A", extra: "<description>short</description><content:encoded>long</content:encoded>"),
      S.item("B", extra: "<content:encoded>long</content:encoded><description>short</description>"),
      S.item("C", extra: "<itunes:summary>sum</itunes:summary><description> text </description>"),
      S.item("D", extra: "<description>  </description><itunes:summary>sum</itunes:summary>"),
      S.item("E", extra: "<description>first</description><description>second</description>"),
      S.item("F"),
    ]
    let feed = try S.parse(S.rss(items.joined()))
    XCTAssertEqual(feed.episodes.map(\.title), ["A", "B", "C", "D", "E", "F"])
    XCTAssertEqual(
      feed.episodes.map(\.description), ["long", "long", "text", "sum", "second", nil])
  }

  func testRSS090RDFFeed() throws {
    let xml = """
      <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
      <channel><title>Old Show</title><link>http://old.example.com/</link></channel>
      <item><title>One</title><link>http://old.example.com/1</link>
        <enclosure url="http://old.example.com/1.mp3" type="audio/mpeg"/></item>
      </rdf:RDF>
      """
    let feed = try S.parse(xml)
    XCTAssertEqual(feed.podcast.title, "Old Show")
    XCTAssertEqual(feed.episodes.map(\.title), ["One"])
  }
}
