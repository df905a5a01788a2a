import Foundation
import LoopbackServer

/// A podcast a test publishes on the loopback server. Episode N keeps its title, guid, date,
/// enclosure and bytes whatever else changes, and the feed's ETag changes whenever the feed
/// does, the way a well-behaved publisher works.
final class Show {
  let slug: String
  let feedPath: String
  private let server: LoopbackServer
  private let size: Int
  /// Newest first, as feeds list them.
  private(set) var episodes: [FakeEpisode] = []
  private(set) var version = 0
  /// Episodes ever published: numbering goes on after some are dropped.
  private var publishedCount = 0
  /// Applied to every enclosure route, e.g. `{ $0.trickling(bytesPerSecond: 20_000) }`.
  var enclosure: (Route) -> Route = { $0 }
  /// Raw XML added to the channel, e.g. `<itunes:new-feed-url>`.
  var channelExtra = ""

  init(
    _ slug: String, episodes count: Int, size: Int = 4_000, at feedPath: String? = nil,
    on server: LoopbackServer
  ) {
    self.slug = slug
    self.feedPath = feedPath ?? "/\(slug)/feed.xml"
    self.server = server
    self.size = size
    publish(count)
  }

  var feedURL: String { server.url(feedPath) }
  var etag: String { "\"\(slug)-v\(version)\"" }
  var newest: FakeEpisode { episodes[0] }

  /// Episode `number`, listed or dropped.
  func episode(_ number: Int) -> FakeEpisode {
    episodes.first { $0.guid == "\(slug)-\(number)" } ?? Self.episode(number, of: slug, size: size)
  }

  /// Adds `count` newer episodes and serves the changed feed under a new ETag.
  func publish(_ count: Int) {
    let first = publishedCount + 1
    for number in first..<(first + count) {
      episodes.insert(Self.episode(number, of: slug, size: size), at: 0)
    }
    publishedCount += count
    version += 1
    serve()
  }

  /// Takes episode `number` out of the feed (as publishers drop old episodes), serving the
  /// changed feed under a new ETag; its file stays served.
  func drop(_ number: Int) {
    episodes.removeAll { $0.guid == "\(slug)-\(number)" }
    version += 1
    serve()
  }

  /// Serves the feed and every enclosure again (after changing `enclosure` or `channelExtra`).
  func serve() {
    let xml = FeedFixture.rss(
      title: "\(slug) show", episodes: episodes, base: server.baseURL, channelExtra: channelExtra)
    server.set(
      feedPath,
      .text(xml, contentType: "application/rss+xml").withETag(etag)
        .withLastModified(Date(timeIntervalSince1970: 1_700_000_000 + Double(version) * 60)))
    for episode in episodes {
      server.set(
        episode.path,
        enclosure(.data(episode.body, contentType: episode.type).withETag("\"\(episode.guid)\"")))
    }
  }

  static func episode(_ number: Int, of slug: String, size: Int) -> FakeEpisode {
    FakeEpisode(
      title: "\(slug) episode \(number)", guid: "\(slug)-\(number)",
      published: Date(timeIntervalSince1970: 1_714_521_600 + Double(number) * 86_400),
      path: "/\(slug)/media/\(number).mp3",
      body: FeedFixture.bytes(size, seed: seed(slug) &+ UInt64(number)))
  }

  /// FNV-1a, so every show's bytes differ and stay the same from run to run.
  private static func seed(_ text: String) -> UInt64 {
    text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 } &* 1_000
  }
}
