import Foundation
import LoopbackServer
import XCTest

/// The first sync after `subscribe` (issue 16): subscribe keeps the feed's validators and what
/// the first-sync policy chose, so that sync costs a 304, still downloads the choice, and says
/// "with new episodes" only for episodes the library did not have: what the first sync
/// downloads is new (issue 42), what the library had already is not.
final class FirstSyncTests: LibraryTestCase {
  func testFirstSyncAfterSubscribeIsA304AndStillDownloadsTheNewest() throws {
    let show = Show("fresh", episodes: 3, on: server)
    try subscribe(show)
    XCTAssertEqual(server.requests(for: show.feedPath).count, 1)

    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    let feedRequests = server.requests(for: show.feedPath)
    XCTAssertEqual(feedRequests.count, 2, "sync asks for the feed once")
    XCTAssertEqual(feedRequests.last?.header("if-none-match"), show.etag)
    XCTAssertNotNil(feedRequests.last?.header("if-modified-since"))
    try assertLastFeedAnswer(show, is: 304)
    assertEpisodeFiles([show.newest])
    XCTAssertEqual(requestCount(show.episode(1)) + requestCount(show.episode(2)), 0)
    XCTAssertTrue(
      sync.stdout.contains("1 feed checked, 1 with new episodes, 0 failed; 1 downloaded"),
      sync.stdout)

    let again = try podcast("sync")
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertTrue(again.stdout.contains("0 with new episodes"), again.stdout)
    XCTAssertTrue(again.stdout.contains("nothing to download"), again.stdout)
    XCTAssertEqual(requestCount(show.newest), 1, "the newest episode was fetched twice")
  }

  /// Two new subscriptions whose first sync downloads: both feeds brought new episodes,
  /// though both answered 304 (issue 42, item 10).
  func testTheReportCountsTheFeedsAFirstSyncDownloadedFrom() throws {
    let shows = [Show("left", episodes: 3, on: server), Show("right", episodes: 3, on: server)]
    for show in shows {
      XCTAssertEqual(try podcast("subscribe", show.feedURL, "--first", "2").status, 0)
    }

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertTrue(
      sync.stdout.contains("2 feeds checked, 2 with new episodes, 0 failed; 4 downloaded"),
      sync.stdout)
    let again = try podcast("sync")
    XCTAssertTrue(
      again.stdout.contains("2 feeds checked, 0 with new episodes, 0 failed; nothing to download"),
      again.stdout)
  }

  func testFirstPolicyAndFiltersGivenToSubscribeStillDecideOnA304() throws {
    let show = Show("picky", episodes: 5, on: server)
    let result = try podcast(
      "subscribe", show.feedURL, "--name", show.slug, "--first", "2", "--exclude", "episode 4")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("downloads 2 episodes"), result.stdout)

    let sync = try json("sync", "--json") as? [String: Any]
    let downloaded = try XCTUnwrap(sync?["downloaded"] as? [[String: Any]])
    XCTAssertEqual(
      Set(downloaded.compactMap { $0["title"] as? String }),
      ["picky episode 5", "picky episode 3"])
    try assertLastFeedAnswer(show, is: 304)
    assertEpisodeFiles([show.episode(5), show.episode(3)])
  }

  func testEpisodesPublishedAfterSubscribeAreAllNewToTheFirstSync() throws {
    let show = Show("busy", episodes: 3, on: server)
    try subscribe(show)
    show.publish(2)

    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    try assertLastFeedAnswer(show, is: 200)
    // Both are newer than the subscription, so the first-sync limit (the newest one) is not
    // theirs; the one subscribe chose is still fetched.
    assertEpisodeFiles([show.episode(3), show.episode(4), show.episode(5)])
    XCTAssertTrue(
      sync.stdout.contains("1 feed checked, 1 with new episodes, 0 failed; 3 downloaded"),
      sync.stdout)

    show.publish(1)
    let next = try json("sync", "--json") as? [String: Any]
    let downloaded = try XCTUnwrap(next?["downloaded"] as? [[String: Any]])
    XCTAssertEqual(downloaded.compactMap { $0["title"] as? String }, ["busy episode 6"])
    XCTAssertEqual(requestCount(show.episode(1)) + requestCount(show.episode(2)), 0)
  }

  func testDryRunAfterSubscribeShowsThePolicysChoiceAndChangesNothing() throws {
    let show = Show("preview", episodes: 4, on: server)
    try subscribe(show)

    let dry = try json("sync", "--dry-run", "--json") as? [String: Any]
    let would = try XCTUnwrap(dry?["wouldDownload"] as? [[String: Any]])
    XCTAssertEqual(would.compactMap { $0["url"] as? String }, [server.url(show.newest.path)])
    try assertLastFeedAnswer(show, is: 304)
    XCTAssertEqual(binary.episodeFiles(), [])

    let text = try podcast("sync", "--dry-run")
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertTrue(text.stdout.contains("would download  preview episode 4"), text.stdout)
    XCTAssertFalse(text.stdout.contains("Nothing new"), text.stdout)

    XCTAssertEqual(try podcast("sync").status, 0)
    assertEpisodeFiles([show.newest])
  }

  func testAnEpisodeDownloadedBeforeTheFirstSyncIsNotNews() throws {
    let show = Show("early", episodes: 3, on: server)
    try subscribe(show)
    XCTAssertEqual(try podcast("download", show.slug).status, 0)

    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertTrue(sync.stdout.contains("0 with new episodes"), sync.stdout)
    XCTAssertEqual(requestCount(show.newest), 1)
    assertEpisodeFiles([show.newest])
  }

  /// A subscription that never read its feed (`import`) still has a full first sync; an
  /// episode it chooses that `download` already fetched is reported skipped, not new.
  func testImportedSubscriptionCountsAnEpisodeItAlreadyHasAsSkippedNotNew() throws {
    let show = Show("imported", episodes: 3, on: server)
    let opml = binary.library + "/feeds.opml"
    try Data(
      """
      <opml version="2.0"><body><outline type="rss" text="\(show.slug)" xmlUrl="\(show.feedURL)"/>\
      </body></opml>
      """.utf8
    ).write(to: URL(fileURLWithPath: opml))
    XCTAssertEqual(try podcast("import", opml).status, 0)
    XCTAssertEqual(try podcast("download", show.feedURL).status, 0)

    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    try assertLastFeedAnswer(show, is: 200)
    XCTAssertTrue(
      sync.stdout.contains(
        "1 feed checked, 0 with new episodes, 0 failed; 0 downloaded, 1 skipped"),
      sync.stdout)
    XCTAssertEqual(requestCount(show.newest), 1)
    assertEpisodeFiles([show.newest])
  }

  /// An episode `download` fetched before its feed gave it a GUID (and a new query string on
  /// its link, as tracking services do) is the same episode to the first sync: skipped, not
  /// fetched again, and `sync --dry-run` says so first. A sync that asked by the new GUID alone
  /// saved a second copy.
  func testAnEpisodeDownloadedBeforeItsFeedGaveItAGUIDIsSkipped() throws {
    let episode = Show.episode(1, of: "renamed", size: 4_000)
    let feedPath = "/renamed/feed.xml"
    func serveFeed(guid: String?, query: String, version: Int) {
      let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>renamed show</title>
        <item><title>\(episode.title)</title>\(guid.map { "<guid>\($0)</guid>" } ?? "")
        <pubDate>Wed, 01 May 2024 00:00:00 GMT</pubDate>
        <enclosure url="\(server.url(episode.path))?\(query)" length="\(episode.body.count)" \
        type="audio/mpeg"/></item></channel></rss>
        """
      server.set(
        feedPath, .text(xml, contentType: "application/rss+xml").withETag("\"v\(version)\""))
    }
    server.set(episode.path, .data(episode.body, contentType: "audio/mpeg"))
    serveFeed(guid: nil, query: "src=feed&amp;v=1", version: 1)
    XCTAssertEqual(try podcast("download", server.url(feedPath), "1").status, 0)
    serveFeed(guid: "renamed-1", query: "src=feed&amp;v=2", version: 2)
    let opml = binary.library + "/feeds.opml"
    try Data(
      """
      <opml version="2.0"><body><outline type="rss" text="renamed" \
      xmlUrl="\(server.url(feedPath))"/></body></opml>
      """.utf8
    ).write(to: URL(fileURLWithPath: opml))
    XCTAssertEqual(try podcast("import", opml).status, 0)

    let preview = try json("sync", "--dry-run", "--json") as? [String: Any]
    XCTAssertEqual(
      (preview?["wouldDownload"] as? [Any])?.count, 0, "\(String(describing: preview))")
    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertTrue(sync.stdout.contains("0 downloaded, 1 skipped"), sync.stdout)
    XCTAssertEqual(server.requests(for: episode.path).count, 1)
    assertEpisodeFiles([episode])
    XCTAssertEqual(
      try statusRows().compactMap { $0["state"] as? String }.filter { $0 != "done" }, [],
      "nothing left waiting")
  }

  func testSetBeforeTheFirstSyncDecidesWhatItTakes() throws {
    let show = Show("reconsidered", episodes: 5, on: server)
    try subscribe(show)
    XCTAssertEqual(try podcast("set", show.slug, "--first", "3").status, 0)
    XCTAssertEqual(try statusRows().count, 0, "subscribe's choice still shows as queued")

    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    assertEpisodeFiles([show.episode(5), show.episode(4), show.episode(3)])
    XCTAssertEqual(requestCount(show.episode(1)) + requestCount(show.episode(2)), 0)

    show.publish(1)
    XCTAssertEqual(try podcast("sync").status, 0)
    try assertLastFeedAnswer(show, is: 200)
    assertEpisodeFiles([show.episode(6), show.episode(5), show.episode(4), show.episode(3)])
    XCTAssertEqual(try podcast("sync").status, 0)
    try assertLastFeedAnswer(show, is: 304)
  }

  func testUnsubscribingBeforeTheFirstSyncLeavesNothingQueued() throws {
    let show = Show("brief", episodes: 2, on: server)
    try subscribe(show)
    XCTAssertEqual(try statusRows().compactMap { $0["state"] as? String }, ["queued"])
    XCTAssertEqual(try podcast("unsubscribe", show.slug).status, 0)
    XCTAssertEqual(try statusRows().count, 0)
  }

  func testMarkingTheChosenEpisodeBeforeTheFirstSyncIsHonoured() throws {
    let show = Show("changed", episodes: 3, on: server)
    try subscribe(show)
    XCTAssertEqual(try podcast("mark", show.slug, "1", "--skip").status, 0)
    XCTAssertEqual(try statusRows().count, 0, "the skipped episode still shows as queued")

    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertEqual(binary.episodeFiles(), [])
    XCTAssertEqual(requestCount(show.newest), 0)
  }

  private func assertLastFeedAnswer(
    _ show: Show, is status: Int, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let requests = server.requests(for: show.feedPath).count
    eventually("the server to log \(requests) feed responses", file: file, line: line) {
      responses.entries.filter { $0.path == show.feedPath }.count == requests
    }
    let answers = responses.entries.filter { $0.path == show.feedPath }
    XCTAssertEqual(answers.last?.status, status, "\(answers)", file: file, line: line)
  }
}
