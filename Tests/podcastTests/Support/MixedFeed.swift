import Foundation
import LoopbackServer

/// A feed that mixes what real feeds mix: full episodes, clips, a trailer, a bonus, a
/// "Revisited" rerun, a lossless copy, and one old episode, with durations, types and
/// descriptions set per item.
struct MixedFeed {
  struct Item {
    var episode: FakeEpisode
    var minutes: Int
    var type: String?
    var description: String
  }

  /// Newest first: index 1 is `items[0]`.
  let items: [Item]
  let feedPath = "/mixed/feed.xml"

  init(size: Int = 3_000) {
    let day = 86_400.0
    let newest = 1_715_335_200.0  // 2024-05-10
    let rows: [(String, Int, String?, String, Double)] = [
      ("Full: The Harbour", 62, "full", "The whole story.", 0),
      ("Clip: a minute on tides", 4, "full", "A short cut from the show.", 1),
      ("Season 2 trailer", 2, "trailer", "Coming soon.", 2),
      ("Full: The Lighthouse (Revisited)", 58, "full", "From the archive.", 3),
      ("Bonus: listener questions", 31, "bonus", "Answers.", 4),
      ("Full: The Storm", 55, nil, "The whole story.", 5),
      ("Full: The Storm", 55, "full", "Lossless FLAC edition.", 6),
      ("Full: The Beginning", 60, "full", "Where it started.", 400),
    ]
    items = rows.enumerated().map { offset, row in
      Item(
        episode: FakeEpisode(
          title: row.0, guid: "mixed-\(offset + 1)",
          published: Date(timeIntervalSince1970: newest - row.4 * day),
          path: "/mixed/media/\(offset + 1).mp3",
          body: FeedFixture.bytes(size, seed: 7_000 + UInt64(offset))),
        minutes: row.1, type: row.2, description: row.3)
    }
  }

  /// The episode `podcast episodes` lists at `index` (1 is the newest).
  func episode(_ index: Int) -> FakeEpisode { items[index - 1].episode }

  var episodes: [FakeEpisode] { items.map(\.episode) }

  @discardableResult
  func serve(on server: LoopbackServer) -> String {
    let base = server.baseURL
    let xml = items.map { item in
      let type = item.type.map { "<itunes:episodeType>\($0)</itunes:episodeType>" } ?? ""
      return """
            <item>
              <title>\(FeedFixture.escape(item.episode.title))</title>
              <guid isPermaLink="false">\(item.episode.guid)</guid>
              <pubDate>\(FeedFixture.rfc822(item.episode.published))</pubDate>
              <description>\(FeedFixture.escape(item.description))</description>
              <itunes:duration>\(item.minutes * 60)</itunes:duration>
              \(type)
              <enclosure url="\(base + item.episode.path)" length="\(item.episode.body.count)" type="audio/mpeg"/>
            </item>
        """
    }
    server.set(
      feedPath,
      .text(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
          <channel>
            <title>Mixed Show</title>
        \(xml.joined(separator: "\n"))
          </channel>
        </rss>
        """, contentType: "application/rss+xml"))
    for item in items {
      server.set(item.episode.path, .data(item.episode.body, contentType: "audio/mpeg"))
    }
    return server.url(feedPath)
  }
}
