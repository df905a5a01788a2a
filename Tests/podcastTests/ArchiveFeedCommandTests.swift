import Foundation
import XCTest

/// `--write-feed`: each podcast folder gets `feed.xml`, a feed of what was downloaded into it,
/// and the Episodes folder `feeds.opml`. Served by a static web server, that feed is a podcast
/// like any other: `podcast` itself can list and download it.
final class ArchiveFeedCommandTests: LibraryTestCase {
  private struct Item {
    var title: String
    var guid: String
    var published: Date
    var path: String
    var body: Data
  }

  /// A private feed (a secret in its URL and in its enclosures' URLs) whose titles need
  /// escaping and make non-ASCII file names.
  private func publish() -> (feedURL: String, items: [Item]) {
    let items = [
      Item(
        title: "Tom & Jerry <live> 🎉 \"quoted\"", guid: "archive-guid-2",
        published: Date(timeIntervalSince1970: 1_714_608_000), path: "/src/media/2.mp3",
        body: FeedFixture.bytes(6_000, seed: 42)),
      Item(
        title: "Café Zürich — Ünïcödé", guid: "https://example.com/?p=1&x=<y>",
        published: Date(timeIntervalSince1970: 1_714_521_600), path: "/src/media/1.mp3",
        body: FeedFixture.bytes(5_000, seed: 7)),
    ]
    let entries = items.map { item in
      """
          <item>
            <title>\(FeedFixture.escape(item.title))</title>
            <guid isPermaLink="false">\(FeedFixture.escape(item.guid))</guid>
            <pubDate>\(FeedFixture.rfc822(item.published))</pubDate>
            <description>&lt;p&gt;Show notes &amp;amp; links&lt;/p&gt;</description>
            <itunes:duration>12:34</itunes:duration>
            <itunes:season>2</itunes:season>
            <itunes:episode>5</itunes:episode>
            <itunes:episodeType>full</itunes:episodeType>
            <itunes:explicit>true</itunes:explicit>
            <enclosure url="\(server.url(item.path))?token=ENCLOSURESECRET" length="\(item.body.count)" type="audio/mpeg"/>
          </item>
      """
    }
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
        <channel>
          <title>Archive Show</title>
          <link>\(server.baseURL)/?auth=LINKSECRET</link>
          <description>About the show</description>
          <language>en</language>
          <itunes:author>Ada &amp; Co</itunes:author>
      \(entries.joined(separator: "\n"))
        </channel>
      </rss>
      """
    server.set("/src/feed.xml", .text(xml, contentType: "application/rss+xml"))
    for item in items {
      server.set(item.path, .data(item.body, contentType: "audio/mpeg"))
    }
    return (server.url("/src/feed.xml") + "?auth=FEEDSECRET", items)
  }

  func testTheArchiveFeedListsAndDownloadsTheSameEpisodes() throws {
    let (feedURL, items) = publish()
    let base = server.url("/archive/")

    let result = try podcast("download", feedURL, "--all", "--write-feed", "--feed-base-url", base)

    XCTAssertEqual(result.status, 0, result.stderr)
    let folder = binary.episodesDirectory + "/Archive Show"
    let feedText = try String(contentsOfFile: folder + "/feed.xml", encoding: .utf8)
    for secret in ["FEEDSECRET", "ENCLOSURESECRET", "LINKSECRET"] {
      XCTAssertFalse(feedText.contains(secret), "\(secret) in the feed")
    }
    XCTAssertTrue(try xmllintAccepts(folder + "/feed.xml"))
    let opml = try String(
      contentsOfFile: binary.episodesDirectory + "/feeds.opml", encoding: .utf8)
    XCTAssertTrue(opml.contains("xmlUrl=\"\(base)Archive%20Show/feed.xml\""), opml)
    XCTAssertTrue(try xmllintAccepts(binary.episodesDirectory + "/feeds.opml"))

    // Served as a static web server would.
    server.setDirectory(binary.episodesDirectory, under: "/archive")
    let archiveURL = base + "Archive%20Show/feed.xml"
    let listing = try XCTUnwrap(try json("episodes", archiveURL, "--json") as? [String: Any])
    let episodes = try XCTUnwrap(listing["episodes"] as? [[String: Any]])
    XCTAssertEqual(episodes.map { $0["title"] as? String }, items.map(\.title))
    XCTAssertEqual(episodes.map { $0["guid"] as? String }, items.map(\.guid))
    let dates = episodes.compactMap { $0["published"] as? String }
    let formatter = ISO8601DateFormatter()
    XCTAssertEqual(dates.compactMap(formatter.date(from:)), items.map(\.published), "\(dates)")
    XCTAssertEqual(episodes.map { $0["duration"] as? Int }, [754, 754])
    XCTAssertEqual(episodes.map { $0["season"] as? Int }, [2, 2])
    XCTAssertEqual(episodes.map { $0["explicit"] as? Bool }, [true, true])
    let podcastInfo = try XCTUnwrap(listing["podcast"] as? [String: Any])
    XCTAssertEqual(podcastInfo["title"] as? String, "Archive Show")
    XCTAssertEqual(podcastInfo["author"] as? String, "Ada & Co")

    // Downloaded again from the archive, into another library: the same bytes.
    var other = try PodcastBinary()
    other.environment["PODCAST_LIBRARY"] = other.library
    defer { try? FileManager.default.removeItem(atPath: other.library) }
    let copy = try other.run(["download", archiveURL, "--all", "--no-tags"])
    XCTAssertEqual(copy.status, 0, copy.stderr)
    let copied = other.episodeFiles().map { other.episodesDirectory + "/" + $0 }
    XCTAssertEqual(copied.count, 2, "\(copied)")
    let originals = binary.episodeFiles().map { binary.episodesDirectory + "/" + $0 }
    XCTAssertEqual(
      Set(try copied.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }),
      Set(try originals.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }))
    XCTAssertTrue(
      originals.contains { $0.contains("Café Zürich") }, "a non-ASCII file name: \(originals)")
  }

  func testWithoutABaseURLTheLinksAreRelativeAndTheFeedGoesWithTheLastEpisode() throws {
    let show = Show("rel", episodes: 2, on: server)
    try subscribe(show)
    let set = try podcast("set", show.slug, "--write-feed")
    XCTAssertEqual(set.status, 0, set.stderr)

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    let feedPath = binary.episodesDirectory + "/rel show/feed.xml"
    let text = try String(contentsOfFile: feedPath, encoding: .utf8)
    let day = DownloadScenario.day(show.newest.published)
    XCTAssertTrue(
      text.contains("<enclosure url=\"\(day)%20rel%20episode%202.mp3\""), text)
    XCTAssertFalse(text.contains("atom:link"))
    // Queued by `subscribe` before the feed was asked for, fetched after a 304: what the
    // queued download knew.
    XCTAssertTrue(text.contains("<guid isPermaLink=\"false\">rel-2</guid>"), text)
    XCTAssertTrue(text.contains("<title>rel episode 2</title>"), text)
    XCTAssertTrue(
      try String(contentsOfFile: binary.episodesDirectory + "/feeds.opml", encoding: .utf8)
        .contains("xmlUrl=\"rel%20show/feed.xml\""))

    let gone = try podcast("unsubscribe", show.slug, "--delete-files")

    XCTAssertEqual(gone.status, 0, gone.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: feedPath))
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: binary.episodesDirectory + "/feeds.opml"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: binary.episodesDirectory + "/rel show"))
  }

  /// `subscribe --write-feed`: every download of the subscription keeps what its feed said,
  /// through the first sync's 304 and later syncs.
  func testASubscriptionsFeedSaysWhatThePublishersFeedSaid() throws {
    let show = Show("sub", episodes: 1, on: server)
    let subscribed = try podcast("subscribe", show.feedURL, "--name", "sub", "--write-feed")
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    XCTAssertEqual(try podcast("sync").status, 0)
    show.publish(1)

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    let text = try String(
      contentsOfFile: binary.episodesDirectory + "/sub show/feed.xml", encoding: .utf8)
    XCTAssertEqual(
      text.components(separatedBy: "<itunes:duration>754</itunes:duration>").count, 3, text)
    XCTAssertTrue(text.contains("<guid isPermaLink=\"false\">sub-1</guid>"), text)
    XCTAssertTrue(text.contains("<guid isPermaLink=\"false\">sub-2</guid>"), text)
    XCTAssertTrue(text.contains("<itunes:author>Test Author</itunes:author>"), text)
  }

  /// `set --write-feed` on a subscription with nothing new: the next sync writes its feed.
  func testTheSyncAfterSetWritesTheFeedEvenWithNothingNew() throws {
    let show = Show("later", episodes: 1, on: server)
    try subscribe(show)
    XCTAssertEqual(try podcast("sync").status, 0)
    let feedPath = binary.episodesDirectory + "/later show/feed.xml"
    XCTAssertFalse(FileManager.default.fileExists(atPath: feedPath))
    XCTAssertEqual(
      try podcast("set", "later", "--write-feed", "--feed-base-url", "http://nas.local/p/").status,
      0)

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    let text = try String(contentsOfFile: feedPath, encoding: .utf8)
    XCTAssertTrue(
      text.contains("<atom:link href=\"http://nas.local/p/later%20show/feed.xml\""), text)
    XCTAssertTrue(text.contains("<guid isPermaLink=\"false\">later-1</guid>"), text)
  }

  func testNoFeedUnlessAsked() throws {
    let show = Show("plain", episodes: 1, on: server)

    let result = try podcast("download", show.feedURL)

    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(binary.sideFiles(), ["plain show/plain show.m3u8"])
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: binary.episodesDirectory + "/feeds.opml"))
  }

  private func xmllintAccepts(_ path: String) throws -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["xmllint", "--noout", path]
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
