import Foundation
import LoopbackServer
import XCTest

/// One show under two feed URLs (a mirror, a host's second address, a feed moved without a
/// redirect): where the GUIDs and the show's identity agree (its title and link, or its
/// `podcast:guid`), the file already on disk is the episode, whichever URL fetched it.
final class SameShowTwoURLsTests: LibraryTestCase {
  /// The same episodes (GUIDs, titles, dates) with enclosures under `prefix`.
  private func serve(
    title: String, at feedPath: String, prefix: String, episodes: [FakeEpisode],
    channelExtra: String = ""
  ) -> String {
    let moved = episodes.map { episode -> FakeEpisode in
      var copy = episode
      copy.path = prefix + episode.path
      return copy
    }
    let xml = FeedFixture.rss(
      title: title, episodes: moved, base: server.baseURL, channelExtra: channelExtra
    ).replacingOccurrences(
      of: "<rss version=\"2.0\"",
      with: #"<rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0""#)
    server.set(feedPath, .text(xml, contentType: "application/rss+xml"))
    for episode in moved {
      server.set(episode.path, .data(episode.body, contentType: episode.type))
    }
    return server.url(feedPath)
  }

  private func fetches(_ prefix: String) -> Int {
    server.requests.filter { $0.target.hasPrefix(prefix + "/media/") }.count
  }

  func testAnEpisodeDownloadedUnderOneURLIsNotFetchedAgainUnderTheOther() throws {
    let episodes = FeedFixture.episodes(3, size: 4_000)
    let first = serve(title: "Mirrored Show", at: "/a/feed.xml", prefix: "/a", episodes: episodes)
    let second = serve(
      title: "Mirrored Show", at: "/b/feed.xml", prefix: "/b", episodes: episodes)
    XCTAssertEqual(try podcast("download", first, "1").status, 0)
    XCTAssertEqual(binary.episodeFiles(), ["Mirrored Show/2024-05-10 Episode 3.mp3"])

    XCTAssertEqual(try podcast("subscribe", second, "--name", "mirror").status, 0)
    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertEqual(fetches("/b"), 0, "the episode on disk is the one the mirror lists")
    XCTAssertEqual(binary.episodeFiles(), ["Mirrored Show/2024-05-10 Episode 3.mp3"], "no (2)")
    let listed = try binary.run(["episodes", "mirror", "--json"]).listedEpisodes()
    XCTAssertEqual(listed.first?["state"] as? String, "downloaded")
    XCTAssertEqual(
      listed.first?["file"] as? String,
      binary.episodesDirectory + "/Mirrored Show/2024-05-10 Episode 3.mp3")

    // `download` of the mirror says the same.
    let again = try podcast("download", second, "1")
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertTrue(again.stdout.contains("already downloaded"), again.stdout)
    XCTAssertEqual(fetches("/b"), 0)
  }

  /// A new episode the other feed of the show brought already: the sync says it had it, as
  /// its `--dry-run` says beforehand (it counted it as new, then found the file at the start).
  func testASyncCountsAnEpisodeTheOtherFeedBroughtAsAlreadyHere() throws {
    let episodes = FeedFixture.episodes(3, size: 4_000)
    let older = Array(episodes.dropFirst())
    _ = serve(title: "Twin Show", at: "/t1/feed.xml", prefix: "/t1", episodes: older)
    let second = serve(title: "Twin Show", at: "/t2/feed.xml", prefix: "/t2", episodes: older)
    XCTAssertEqual(try podcast("subscribe", second, "--name", "twin", "--first", "none").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)

    let first = serve(title: "Twin Show", at: "/t1/feed.xml", prefix: "/t1", episodes: episodes)
    _ = serve(title: "Twin Show", at: "/t2/feed.xml", prefix: "/t2", episodes: episodes)
    XCTAssertEqual(try podcast("download", first, "1").status, 0)
    let preview = try podcast("sync", "--dry-run")
    XCTAssertEqual(preview.status, 0, preview.stderr)
    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertTrue(sync.stdout.contains("0 with new episodes"), sync.stdout)
    XCTAssertTrue(preview.stdout.contains("Nothing new"), preview.stdout)
    XCTAssertEqual(fetches("/t2"), 0)
  }

  /// `podcast:guid` names the show whatever its title says (a renamed mirror).
  func testTheShowsPodcastGUIDIsItsIdentityToo() throws {
    let episodes = FeedFixture.episodes(2, size: 4_000)
    let guid = "<podcast:guid>917393e3-1b1e-5cef-ace4-edaa54e1f810</podcast:guid>"
    let first = serve(
      title: "Guid Show", at: "/g1/feed.xml", prefix: "/g1", episodes: episodes,
      channelExtra: guid)
    let second = serve(
      title: "Guid Show (mirror)", at: "/g2/feed.xml", prefix: "/g2", episodes: episodes,
      channelExtra: guid)
    XCTAssertEqual(try podcast("download", first, "1").status, 0)
    let again = try podcast("download", second, "1")
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertEqual(fetches("/g2"), 0, again.stdout)
    XCTAssertEqual(binary.episodeFiles().count, 1, "\(binary.episodeFiles())")
  }

  /// Another show whose GUIDs happen to be the same ("1", "2", as some hosts number them) is
  /// another show: its episodes are fetched.
  func testAnotherShowWithTheSameGUIDsIsFetched() throws {
    let episodes = FeedFixture.episodes(2, size: 4_000)
    let first = serve(title: "One Show", at: "/o/feed.xml", prefix: "/o", episodes: episodes)
    let other = serve(title: "Other Show", at: "/p/feed.xml", prefix: "/p", episodes: episodes)
    XCTAssertEqual(try podcast("download", first, "1").status, 0)
    XCTAssertEqual(try podcast("download", other, "1").status, 0)
    XCTAssertEqual(fetches("/p"), 1)
    XCTAssertEqual(binary.episodeFiles().count, 2, "\(binary.episodeFiles())")
  }
}
