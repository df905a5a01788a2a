import Foundation
import LoopbackServer

/// A paged feed (RFC 5005) laid out as Podlove Podcast Publisher serves one: the feed URL is
/// page one with the newest episodes and `first`/`next`/`last` links; `?paged=N` pages carry
/// `first`/`prev`/`next` (the last page no `next`). Episodes keep their titles, guids, dates
/// and bytes as `Show` does, and every page gets a new ETag whenever the feed changes.
///
/// Podlove writes absolute links; page two's `next` is relative here (`?paged=3`), as other
/// generators write them, so resolution against the page's own URL is exercised too.
final class PagedShow {
  let slug: String
  let perPage: Int
  private let server: LoopbackServer
  private let size: Int
  /// Newest first.
  private(set) var episodes: [FakeEpisode] = []
  private(set) var version = 0
  /// Replaces a page's `next` link (page number → href), e.g. a loop back to page one.
  var nextLink: [Int: String] = [:]
  /// Served instead of a page (page number → route), e.g. `.status(500)`.
  var pageRoute: [Int: Route] = [:]
  /// Wraps every page's route, e.g. to require credentials.
  var pageWrapper: (Route) -> Route = { $0 }

  init(
    _ slug: String, episodes count: Int, perPage: Int = 10, size: Int = 3_000,
    on server: LoopbackServer
  ) {
    self.slug = slug
    self.perPage = perPage
    self.server = server
    self.size = size
    publish(count)
  }

  /// Podlove's feed path, one per audio format.
  var feedPath: String { "/\(slug)/feed/mp3/" }
  var feedURL: String { server.url(feedPath) }
  var pageCount: Int { max(1, (episodes.count + perPage - 1) / perPage) }

  func pagePath(_ number: Int) -> String {
    number == 1 ? feedPath : feedPath + "?paged=\(number)"
  }

  func pageURL(_ number: Int) -> String { server.url(pagePath(number)) }

  /// Requests for page `number` so far.
  func requests(forPage number: Int) -> Int {
    server.requests.filter { $0.target == pagePath(number) }.count
  }

  var feedRequests: Int { (1...pageCount).map(requests(forPage:)).reduce(0, +) }

  var newest: FakeEpisode { episodes[0] }

  /// Episode `number`, counted from the oldest (1) as `Show` does.
  func episode(_ number: Int) -> FakeEpisode {
    episodes[episodes.count - number]
  }

  /// Adds `count` newer episodes: every page's contents shift, as on a real paged feed.
  func publish(_ count: Int) {
    let first = episodes.count + 1
    for number in first..<(first + count) {
      episodes.insert(Show.episode(number, of: slug, size: size), at: 0)
    }
    version += 1
    serve()
  }

  func serve() {
    for number in 1...pageCount {
      let route =
        pageRoute[number]
        ?? .text(page(number), contentType: "application/rss+xml; charset=UTF-8")
        .withETag("\"\(slug)-p\(number)-v\(version)\"")
      server.set(pagePath(number), pageWrapper(route))
    }
    for episode in episodes {
      server.set(
        episode.path, .data(episode.body, contentType: episode.type).withETag("\"\(episode.guid)\"")
      )
    }
  }

  func page(_ number: Int) -> String {
    var links = [
      #"<atom:link rel="self" type="application/rss+xml" title="\#(slug) (MP3 Audio)" href="\#(pageURL(number))"/>"#,
      #"<atom:link rel="first" href="\#(pageURL(1))"/>"#,
    ]
    if number > 1 { links.append(#"<atom:link rel="prev" href="\#(pageURL(number - 1))"/>"#) }
    if let next = nextLink[number] ?? (number < pageCount ? nextHref(from: number) : nil) {
      links.append(#"<atom:link rel="next" href="\#(FeedFixture.escape(next))"/>"#)
    }
    if number == 1 { links.append(#"<atom:link rel="last" href="\#(pageURL(pageCount))"/>"#) }
    let items = episodes.dropFirst((number - 1) * perPage).prefix(perPage).map { episode in
      """
          <item>
            <title>\(FeedFixture.escape(episode.title))</title>
            <link>\(server.baseURL)/\(slug)/\(episode.guid)/</link>
            <pubDate>\(FeedFixture.rfc822(episode.published))</pubDate>
            <guid isPermaLink="false">\(FeedFixture.escape(episode.guid))</guid>
            <description><![CDATA[Notes for \(FeedFixture.escape(episode.title))]]></description>
            <atom:link rel="http://podlove.org/deep-link" href="\(server.baseURL)/\(slug)/\(episode.guid)/#"/>
            <enclosure url="\(server.baseURL + episode.path)" length="\(episode.body.count)" type="\(episode.type)"/>
            <itunes:duration>00:42:00</itunes:duration>
          </item>
      """
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <?xml-stylesheet href="\(server.baseURL)/wp-content/plugins/podlove-podcasting-plugin-for-wordpress/lib/modules/podlove_web_player/player_v4/dist/feed.xsl" type="text/xsl"?>
      <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:fh="http://purl.org/syndication/history/1.0">
        <channel>
          <title>\(slug) show</title>
          <link>\(server.baseURL)/\(slug)/</link>
          <description>A paged test show</description>
          <lastBuildDate>Fri, 10 May 2024 10:00:00 +0000</lastBuildDate>
          \(links.joined(separator: "\n      "))
          <generator>Podlove Podcast Publisher v4.1.3</generator>
          <language>en</language>
          <itunes:author>Test Author</itunes:author>
          <itunes:type>episodic</itunes:type>
      \(items.joined(separator: "\n"))
        </channel>
      </rss>
      """
  }

  private func nextHref(from number: Int) -> String {
    number == 2 ? "?paged=3" : pageURL(number + 1)
  }
}
