import Foundation
import LoopbackServer

/// A show whose episodes have what `find` searches: show notes (HTML), a transcript in one of
/// the formats feeds publish, chapters. Served by a loopback server; change an episode and
/// `serve()` again, as a publisher edits a feed.
final class FindableShow {
  struct Item {
    var title: String
    var notes: String = ""
    /// `vtt`, `srt`, `json`, `html` or `txt`, and the file's text; nil: no transcript.
    var transcript: (format: String, text: String)?
    /// Podcasting 2.0 chapters: (start seconds, title).
    var chapters: [(Double, String)] = []
    var day: Int
    var slug: String

    init(
      _ title: String, day: Int, notes: String = "",
      transcript: (format: String, text: String)? = nil, chapters: [(Double, String)] = []
    ) {
      self.title = title
      self.day = day
      self.notes = notes
      self.transcript = transcript
      self.chapters = chapters
      slug = "ep\(day)"
    }
  }

  let name: String
  let server: LoopbackServer
  var items: [Item]

  init(_ name: String, items: [Item], on server: LoopbackServer) {
    self.name = name
    self.items = items
    self.server = server
    serve()
  }

  var feedPath: String { "/\(name)/feed.xml" }
  var feedURL: String { server.url(feedPath) }

  /// A day of May 2024, 10:00 UTC.
  static func date(_ day: Int) -> Date {
    Date(timeIntervalSince1970: 1_714_557_600 + Double(day - 1) * 86_400)
  }

  private static let types = [
    "vtt": "text/vtt", "srt": "application/x-subrip", "json": "application/json",
    "html": "text/html", "txt": "text/plain",
  ]

  func serve() {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    // Newest first, as feeds list them.
    let sorted = items.sorted { $0.day > $1.day }
    var xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
        xmlns:podcast="https://podcastindex.org/namespace/1.0">
      <channel><title>\(escape(name))</title><link>\(server.baseURL)/</link>

      """
    for item in sorted {
      let base = "/\(name)/\(item.slug)"
      var extra = ""
      if let transcript = item.transcript {
        let path = base + "." + transcript.format
        let type = Self.types[transcript.format] ?? "text/plain"
        server.set(path, .data(Data(transcript.text.utf8), contentType: type))
        extra += "<podcast:transcript url=\"\(server.url(path))\" type=\"\(type)\"/>"
      }
      if !item.chapters.isEmpty {
        let path = base + ".chapters.json"
        let list = item.chapters.map {
          "{\"startTime\": \($0.0), \"title\": \"\($0.1)\"}"
        }
        server.set(
          path,
          .data(
            Data("{\"version\": \"1.2.0\", \"chapters\": [\(list.joined(separator: ","))]}".utf8),
            contentType: "application/json+chapters"))
        extra +=
          "<podcast:chapters url=\"\(server.url(path))\" type=\"application/json+chapters\"/>"
      }
      server.set(base + ".mp3", .data(Self.audio(item.day), contentType: "audio/mpeg"))
      xml += """
        <item><title>\(escape(item.title))</title><guid isPermaLink="false">\(name)-\(item.slug)</guid>
        <pubDate>\(formatter.string(from: Self.date(item.day)))</pubDate>
        <description><![CDATA[\(item.notes)]]></description>
        <enclosure url="\(server.url(base + ".mp3"))" length="4000" type="audio/mpeg"/>\(extra)
        </item>

        """
    }
    xml += "</channel></rss>\n"
    server.set(feedPath, .text(xml, contentType: "application/rss+xml"))
  }

  /// Bytes that are no MPEG frame (TagLib leaves them alone) and differ per episode.
  private static func audio(_ seed: Int) -> Data {
    var bytes = [UInt8](repeating: 0, count: 4000)
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
    for index in bytes.indices {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      bytes[index] = UInt8(truncatingIfNeeded: state)
    }
    bytes[0] = UInt8(ascii: "N")
    return Data(bytes)
  }

  private func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
  }
}
