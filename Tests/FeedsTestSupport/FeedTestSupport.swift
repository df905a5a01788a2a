import Feeds
import Foundation

/// Shared helpers for the tests of feeds and of what reads them: small RSS documents written
/// inline, parsed the way a fetched feed is.
package enum FeedTestSupport {
  package static let base = "https://example.com/shows/feed.xml"

  package static func parse(_ xml: String, baseURL: String? = base) throws -> Feed {
    try FeedParser.parse(Data(xml.utf8), baseURL: baseURL)
  }

  /// An RSS 2.0 document with the usual namespaces declared around `items`.
  package static func rss(_ items: String, channelExtras: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
      xmlns:content="http://purl.org/rss/1.0/modules/content/"
      xmlns:media="http://search.yahoo.com/mrss/"
      xmlns:podcast="https://podcastindex.org/namespace/1.0">
    <channel><title>Test Show</title>\(channelExtras)
    \(items)
    </channel></rss>
    """
  }

  /// One item with an mp3 enclosure; `extra` goes inside the item.
  package static func item(_ title: String, date: String? = nil, extra: String = "") -> String {
    let pubDate = date.map { "<pubDate>\($0)</pubDate>" } ?? ""
    let slug = title.lowercased().replacingOccurrences(of: " ", with: "-")
    return """
      <item><title>\(title)</title>\(pubDate)
      <enclosure url="https://media.example.com/\(slug).mp3" length="1000" type="audio/mpeg"/>
      \(extra)</item>
      """
  }

  package static func utc(_ iso: String) -> Date? {
    ISO8601DateFormatter().date(from: iso)
  }
}
