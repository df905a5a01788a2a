import Foundation
import Glibc

/// `generate-feed`: a large, realistic RSS 2.0 podcast feed for the parser benchmark and the
/// large-feed tests. Deterministic (a fixed seed) and streamed to disk, so 20,000 episodes
/// (about 90 MB) take a second or two and little memory.
struct FeedGenerator {
  let episodes: Int
  let output: String
  let base: String

  init(_ arguments: [String]) throws(TestServerError) {
    let options = try CommandLineOptions(arguments, allowed: ["episodes", "out", "base"])
    episodes = try options.integer("episodes", in: 0...10_000_000) ?? 100
    output = try options.required("out")
    base = options.string("base") ?? "{{base}}"
  }

  func run() throws {
    guard let file = fopen(output, "w") else {
      throw TestServerError.cannotWrite(path: output, reason: String(cString: strerror(errno)))
    }
    var writer = ShowNotesWriter(seed: 0x5EED)
    var text = header()
    for number in stride(from: episodes, to: 0, by: -1) {
      text += item(number, &writer)
      if text.utf8.count > 1 << 20 {
        try write(text, to: file)
        text = ""
      }
    }
    text += "  </channel>\n</rss>\n"
    try write(text, to: file)
    guard fclose(file) == 0 else {
      throw TestServerError.cannotWrite(path: output, reason: String(cString: strerror(errno)))
    }
  }

  private func write(_ text: String, to file: UnsafeMutablePointer<FILE>) throws {
    let count = text.utf8.count
    let written = text.withCString { fwrite($0, 1, count, file) }
    guard written == count else {
      throw TestServerError.cannotWrite(path: output, reason: String(cString: strerror(errno)))
    }
  }

  private func header() -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" \
    xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">
      <channel>
        <title>The Long Archive &amp; Friends</title>
        <link>\(base)/</link>
        <atom:link href="\(base)/feed.xml" rel="self" type="application/rss+xml"/>
        <language>en-us</language>
        <copyright>&#169; 2006-2025 Long Archive Media</copyright>
        <description>Conversations about history, science &amp; the odd corners of everyday life. \
    \(episodes) episodes and counting.</description>
        <itunes:author>Long Archive Media</itunes:author>
        <itunes:owner><itunes:name>Long Archive Media</itunes:name><itunes:email>hello@example.com</itunes:email></itunes:owner>
        <itunes:image href="\(base)/artwork.jpg"/>
        <itunes:category text="Society &amp; Culture"><itunes:category text="Documentary"/></itunes:category>
        <itunes:explicit>false</itunes:explicit>
        <itunes:type>episodic</itunes:type>

    """
  }

  private func item(_ number: Int, _ writer: inout ShowNotesWriter) -> String {
    let title = writer.title()
    let seconds = 1200 + writer.next(3600)
    let published = Date(timeIntervalSince1970: 1_750_000_000 - Double(episodes - number) * 28_800)
    let notes = writer.showNotes(title: title, number: number, base: base)
    return """
          <item>
            <title>\(number): \(title)</title>
            <link>\(base)/episodes/\(number)</link>
            <guid isPermaLink="false">long-archive-\(number)-\(String(number &* 2_654_435_761 & 0xFFFF_FFFF, radix: 16))</guid>
            <pubDate>\(Self.rfc822(published))</pubDate>
            <description>\(Self.escaped(notes.summary))</description>
            <content:encoded><![CDATA[\(notes.html)]]></content:encoded>
            <enclosure url="\(base)/audio/episode-\(number).mp3" length="\(seconds * 16_000 + writer.next(9999))" type="audio/mpeg"/>
            <itunes:title>\(title)</itunes:title>
            <itunes:episode>\(number)</itunes:episode>
            <itunes:season>\(1 + number / 200)</itunes:season>
            <itunes:episodeType>\(number % 50 == 0 ? "bonus" : "full")</itunes:episodeType>
            <itunes:duration>\(seconds / 3600):\(Self.two(seconds / 60 % 60)):\(Self.two(seconds % 60))</itunes:duration>
            <itunes:explicit>\(number % 7 == 0 ? "true" : "false")</itunes:explicit>
            <itunes:image href="\(base)/art/\(number % 12).jpg"/>
          </item>

      """
  }

  private static func two(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }

  /// XML text escaping by hand: Foundation's replacingOccurrences is slow on Linux.
  private static func escaped(_ html: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(html.utf8.count + html.utf8.count / 4)
    for byte in html.utf8 {
      switch byte {
      case UInt8(ascii: "&"): bytes += Array("&amp;".utf8)
      case UInt8(ascii: "<"): bytes += Array("&lt;".utf8)
      case UInt8(ascii: ">"): bytes += Array("&gt;".utf8)
      case UInt8(ascii: "\""): bytes += Array("&quot;".utf8)
      default: bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  private static func rfc822(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return
      "\(weekdays[Int(parts.tm_wday)]), \(two(Int(parts.tm_mday))) \(months[Int(parts.tm_mon)]) "
      + "\(parts.tm_year + 1900) \(two(Int(parts.tm_hour))):\(two(Int(parts.tm_min))):\(two(Int(parts.tm_sec))) +0000"
  }
}
