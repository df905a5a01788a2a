import Foundation
import Search
import XCTest

/// The merge of several directories' lists: which results are one podcast, the order
/// reciprocal-rank fusion gives, and which fields win.
final class ResultMergeTests: XCTestCase {
  private func show(
    _ directory: Directory, _ title: String, feed: String? = nil, iTunes: Int? = nil,
    guid: String? = nil, episodes: Int? = nil, newest: TimeInterval? = nil,
    artwork: String? = nil, author: String? = nil
  ) -> SearchResult {
    SearchResult(
      iTunesID: iTunes, title: title, author: author, feedURL: feed, episodeCount: episodes,
      artworkURL: artwork,
      releaseDate: directory == .apple ? newest.map(Date.init(timeIntervalSince1970:)) : nil,
      lastPublished: newest.map(Date.init(timeIntervalSince1970:)), directories: [directory],
      podcastIndexID: directory == .podcastindex ? title.count : nil,
      fyydID: directory == .fyyd ? title.count + 1000 : nil, podcastGUID: guid)
  }

  func testTheSameFeedURLIsOnePodcastWhateverItsSpelling() {
    let spellings = [
      "https://feeds.example.com/show", "http://feeds.example.com/show",
      "HTTPS://Feeds.Example.COM/show/", "http://feeds.example.com:80/show",
      "https://feeds.example.com:443/show//", "https://user:pw@feeds.example.com/show#top",
    ]
    for spelling in spellings {
      XCTAssertEqual(
        ResultMerge.feedKey(spelling), "feeds.example.com/show", spelling)
    }
    // What makes another feed: the path's case, the query, another port, another path.
    for other in [
      "https://feeds.example.com/Show", "https://feeds.example.com/show?format=mp3",
      "https://feeds.example.com:8443/show", "http://feeds.example.com:443/show",
      "https://feeds.example.com/show/mp3",
    ] {
      XCTAssertNotEqual(ResultMerge.feedKey(other), "feeds.example.com/show", other)
    }
    XCTAssertEqual(
      ResultMerge.feedKey("https://example.com/?feed=rss2&cat=3"), "example.com?feed=rss2&cat=3")

    let merged = ResultMerge.merge(
      [
        [show(.apple, "Show", feed: "https://feeds.example.com/show")],
        [show(.gpodder, "Show", feed: "HTTP://FEEDS.example.com:80/show/")],
      ], limit: 10)

    XCTAssertEqual(merged.count, 1)
    XCTAssertEqual(merged[0].directories, [.apple, .gpodder])
    XCTAssertEqual(merged[0].feedURL, "https://feeds.example.com/show", "Apple's spelling first")
  }

  func testTheSameITunesIDOrPodcastGUIDIsOnePodcastAndSoOnTransitively() {
    let merged = ResultMerge.merge(
      [
        [show(.apple, "Moved", feed: "https://old.example/feed", iTunes: 42)],
        [
          show(
            .podcastindex, "Moved (new host)", feed: "https://new.example/feed", iTunes: 42,
            guid: "G-1"),
          show(.podcastindex, "Moved (mp3)", feed: "https://new.example/mp3", guid: "g-1"),
        ],
        [show(.fyyd, "Moved mp3", feed: "http://new.example/mp3/")],
      ], limit: 10)

    XCTAssertEqual(merged.count, 1, "\(merged)")
    XCTAssertEqual(merged[0].directories, [.apple, .podcastindex, .fyyd])
    XCTAssertEqual(merged[0].title, "Moved")
    XCTAssertEqual(merged[0].iTunesID, 42)
    XCTAssertEqual(merged[0].podcastIndexID, "Moved (new host)".count, "its best-ranked entry")
    XCTAssertEqual(merged[0].fyydID, "Moved mp3".count + 1000)
    XCTAssertEqual(merged[0].podcastGUID, "G-1")
  }

  func testDifferentPodcastsStayApart() {
    let merged = ResultMerge.merge(
      [
        [show(.apple, "A", feed: "https://a.example/feed", iTunes: 1)],
        [show(.podcastindex, "B", feed: "https://b.example/feed", iTunes: 2, guid: "x")],
        [show(.fyyd, "C", feed: nil), show(.fyyd, "D", feed: nil)],
      ], limit: 10)

    XCTAssertEqual(merged.map(\.title), ["A", "B", "C", "D"])
  }

  /// Listed by two directories beats first place in one; among shows listed once, the rank
  /// decides, then the directory.
  func testReciprocalRankFusionOrdersThem() {
    let merged = ResultMerge.merge(
      [
        [
          show(.apple, "Apple only 1", feed: "https://a1.example"),
          show(.apple, "Apple only 2", feed: "https://a2.example"),
          show(.apple, "Both, low", feed: "https://both.example"),
        ],
        [
          show(.podcastindex, "Index only 1", feed: "https://p1.example"),
          show(.podcastindex, "Both, low (Index)", feed: "https://both.example/"),
        ],
        [show(.gpodder, "gpodder only 1", feed: "https://g1.example")],
      ], limit: 10)

    XCTAssertEqual(
      merged.map(\.title),
      [
        "Both, low",  // 1/63 + 1/62
        "Apple only 1", "Index only 1", "gpodder only 1",  // 1/61 each: Directory order
        "Apple only 2",  // 1/62
      ])
    XCTAssertEqual(merged[0].directories, [.podcastindex, .apple], "best rank first")
  }

  func testTheRichestFieldsWin() {
    let merged = ResultMerge.merge(
      [
        [
          show(
            .apple, "Apple's Title", feed: "https://x.example/feed", iTunes: 7, episodes: 100,
            newest: 1_000, artwork: "https://apple.example/600.jpg", author: nil)
        ],
        [
          show(
            .podcastindex, "Index Title", feed: "https://x.example/feed", episodes: 250,
            newest: 3_000, artwork: "https://index.example/art.jpg", author: "Index Author")
        ],
        [show(.fyyd, "fyyd Title", feed: "https://x.example/feed", episodes: 249, newest: 2_000)],
      ], limit: 10)

    let podcast = merged[0]
    XCTAssertEqual(podcast.episodeCount, 250, "the largest count")
    XCTAssertEqual(podcast.lastPublished, Date(timeIntervalSince1970: 3_000), "the newest date")
    XCTAssertEqual(podcast.releaseDate, Date(timeIntervalSince1970: 1_000), "Apple's own date")
    XCTAssertEqual(podcast.artworkURL, "https://apple.example/600.jpg", "Apple's artwork")
    XCTAssertEqual(podcast.title, "Apple's Title")
    XCTAssertEqual(podcast.author, "Index Author", "Apple had none")
  }

  func testTheLimitCutsTheMergedList() {
    let many = (1...20).map { show(.fyyd, "Show \($0)", feed: "https://\($0).example") }

    XCTAssertEqual(ResultMerge.merge([many], limit: 5).count, 5)
    XCTAssertEqual(ResultMerge.merge([many], limit: 5).map(\.title), many.prefix(5).map(\.title))
    XCTAssertEqual(ResultMerge.merge([], limit: 5), [])
  }

  /// A pure function: the same lists give the same answer, in whichever order the directories
  /// came back.
  func testTheOrderOfTheListsDoesNotMatter() {
    let apple = [
      show(.apple, "One", feed: "https://1.example"),
      show(.apple, "Two", feed: "https://2.example"),
    ]
    let index = [
      show(.podcastindex, "Two", feed: "https://2.example"),
      show(.podcastindex, "Three", feed: "https://3.example"),
    ]

    XCTAssertEqual(
      ResultMerge.merge([apple, index], limit: 10), ResultMerge.merge([index, apple], limit: 10))
  }
}
