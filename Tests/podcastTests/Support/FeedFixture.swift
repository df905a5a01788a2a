import Foundation
import LoopbackServer

/// An episode a test feed lists and the loopback server serves.
struct FakeEpisode {
  var title: String
  var guid: String
  var published: Date
  /// Path of the enclosure on the test server, e.g. "/media/1.mp3".
  var path: String
  var body: Data
  var type = "audio/mpeg"
  /// The enclosure length the feed announces; nil: the body's true size.
  var declaredLength: Int? = nil
}

/// Small, realistic RSS feeds for the end-to-end tests, served by a `LoopbackServer`.
enum FeedFixture {
  /// `count` episodes, newest first, one day apart, ending 2024-05-10, with distinct bodies.
  static func episodes(_ count: Int, size: Int = 20_000, prefix: String = "Episode")
    -> [FakeEpisode]
  {
    (1...max(1, count)).prefix(count).map { number in
      FakeEpisode(
        title: "\(prefix) \(count - number + 1)", guid: "guid-\(prefix)-\(count - number + 1)",
        published: Date(timeIntervalSince1970: 1_715_335_200 - Double(number - 1) * 86_400),
        path: "/media/\(prefix.lowercased())-\(count - number + 1).mp3",
        body: bytes(size, seed: UInt64(count - number + 1)))
    }
  }

  static func rss(title: String, episodes: [FakeEpisode], base: String, channelExtra: String = "")
    -> String
  {
    let items = episodes.map { episode in
      """
          <item>
            <title>\(escape(episode.title))</title>
            <guid isPermaLink="false">\(escape(episode.guid))</guid>
            <pubDate>\(rfc822(episode.published))</pubDate>
            <itunes:duration>12:34</itunes:duration>
            <enclosure url="\(escape(base + episode.path))" length="\(episode.declaredLength ?? episode.body.count)" type="\(episode.type)"/>
          </item>
      """
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
        <channel>
          <title>\(escape(title))</title>
          <link>\(base)/</link>
          <itunes:author>Test Author</itunes:author>
          \(channelExtra)
      \(items.joined(separator: "\n"))
        </channel>
      </rss>
      """
  }

  /// Serves the feed at `feedPath` and every enclosure; returns the feed URL.
  @discardableResult
  static func serve(
    _ episodes: [FakeEpisode], title: String = "Test Show", at feedPath: String = "/feed.xml",
    on server: LoopbackServer, enclosure: (Route) -> Route = { $0 }
  ) -> String {
    server.set(
      feedPath,
      .text(
        rss(title: title, episodes: episodes, base: server.baseURL),
        contentType: "application/rss+xml"))
    for episode in episodes {
      server.set(
        episode.path,
        enclosure(.data(episode.body, contentType: episode.type).withETag("\"\(episode.guid)\"")))
    }
    return server.url(feedPath)
  }

  /// Deterministic bytes that do not compress and differ per seed.
  static func bytes(_ count: Int, seed: UInt64) -> Data {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var bytes = [UInt8](repeating: 0, count: count)
    for index in 0..<count {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      bytes[index] = UInt8(truncatingIfNeeded: state)
    }
    return Data(bytes)
  }

  static func rfc822(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
    return formatter.string(from: date)
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
