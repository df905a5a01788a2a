import Foundation
import LoopbackServer

/// A small feed on the loopback server for the use-case tests: episodes 1...count, newest
/// (highest number) first, each with a real body at its enclosure URL.
struct UseCaseFeed {
  let server: LoopbackServer
  let path: String
  let count: Int

  func body(_ number: Int) -> Data {
    Data((0..<4_000).map { UInt8(truncatingIfNeeded: $0 &* (number + 3) &+ 1) })
  }

  func enclosure(_ number: Int) -> String { server.url("\(path)/episode-\(number).mp3") }

  var url: String { server.url(path) }

  /// `feed` changes how the feed itself is served (a stall, say).
  func serve(etag: String = "\"feed-v1\"", feed: (Route) -> Route = { $0 }) {
    let items = (1...max(count, 1)).reversed().prefix(count).map { number in
      """
      <item><title>Episode \(number)\(number % 2 == 0 ? " (bonus)" : "")</title>
      <guid>\(path)-\(number)</guid>
      <pubDate>\(String(format: "%02d", number)) May 2024 10:00:00 GMT</pubDate>
      <enclosure url="\(enclosure(number))" length="\(body(number).count)" type="audio/mpeg"/>
      </item>
      """
    }
    server.set(
      path,
      feed(
        Route.text(
          """
          <?xml version="1.0" encoding="UTF-8"?>
          <rss version="2.0"><channel><title>Show</title>
          \(items.joined(separator: "\n"))
          </channel></rss>
          """, contentType: "application/rss+xml"
        ).withETag(etag)))
    for number in (1...max(count, 1)).prefix(count) {
      server.set("\(path)/episode-\(number).mp3", .data(body(number), contentType: "audio/mpeg"))
    }
  }
}
