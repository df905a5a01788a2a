import Foundation
import LoopbackServer
import XCTest

/// The library's kept copy of each subscription's feed, end to end: `episodes NAME` lists from
/// it on a 304 and when the server cannot be reached, and episodes the feed dropped stay
/// listed (and on disk) for as long as the library holds them.
final class KeptFeedCommandTests: LibraryTestCase {
  /// The library's copies of feeds are rows of its database: read and changed here as a
  /// power cut, a bad disk or an older library would leave them.
  @discardableResult
  private func sql(_ statement: String) throws -> String {
    try ExternalTool.run("sqlite3", [binary.library + "/.podcast/library.sqlite", statement])
  }

  private func copies() throws -> Int {
    Int(try sql("SELECT count(*) FROM keptFeeds").trimmingCharacters(in: .whitespacesAndNewlines))
      ?? -1
  }

  private func episodes(_ name: String, _ extra: String...) throws -> [[String: Any]] {
    try binary.run(["episodes", name, "--json"] + extra).listedEpisodes()
  }

  func testEpisodesOfASubscriptionAsksConditionallyAndListsTheKeptCopyOnA304() throws {
    let show = Show("weekly", episodes: 3, on: server)
    try subscribe(show)
    XCTAssertEqual(try podcast("sync").status, 0)
    let bodyBytes = server.bodyBytesSent(for: show.feedPath)
    let requests = server.requests(for: show.feedPath).count

    let result = try podcast("episodes", "weekly")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stderr, "", "an unchanged feed is nothing to remark on")
    let asked = try XCTUnwrap(server.requests(for: show.feedPath).dropFirst(requests).first)
    XCTAssertEqual(asked.header("if-none-match"), show.etag)
    XCTAssertEqual(
      server.bodyBytesSent(for: show.feedPath), bodyBytes, "the feed's body was sent again")
    eventually("the server to log the 304") {
      responses.entries.last { $0.path == show.feedPath }?.status == 304
    }
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, "weekly show by Test Author")
    XCTAssertTrue(lines[2].hasPrefix("1  ") && lines[2].hasSuffix("weekly episode 3"), lines[2])
    XCTAssertTrue(lines[4].hasPrefix("3  ") && lines[4].hasSuffix("weekly episode 1"), lines[4])
    XCTAssertTrue(lines[2].contains("done"), "the synced episode shows as downloaded: \(lines[2])")
  }

  func testSubscribeKeepsTheFirstCopySoEpisodesBeforeAnySyncIsA304() throws {
    let show = Show("fresh", episodes: 2, on: server)
    try subscribe(show)
    let bodyBytes = server.bodyBytesSent(for: show.feedPath)

    let listed = try episodes("fresh")
    XCTAssertEqual(
      listed.compactMap { $0["title"] as? String }, ["fresh episode 2", "fresh episode 1"])
    XCTAssertEqual(server.bodyBytesSent(for: show.feedPath), bodyBytes)
  }

  func testAChangedFeedIsListedAsServedNow() throws {
    let show = Show("busy", episodes: 2, on: server)
    try subscribe(show)
    show.publish(1)

    let listed = try episodes("busy")
    XCTAssertEqual(listed.first?["title"] as? String, "busy episode 3")
    XCTAssertEqual(listed.count, 3)
  }

  func testWithTheServerDownEpisodesListsTheKeptCopySayingHowOldAndExitsZero() throws {
    let show = Show("remote", episodes: 3, on: server)
    try subscribe(show)
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try copies(), 1, "one copy per subscription")
    // Last known current 3 days ago: fetched then, and not confirmed by a 304 since.
    try sql("UPDATE keptFeeds SET checked = datetime('now', '-3 days', '-60 seconds')")
    try sql("UPDATE subscriptions SET lastChecked = datetime('now', '-3 days', '-60 seconds')")
    server.stop()

    let result = try podcast("episodes", "remote")
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 5, result.stdout)
    XCTAssertTrue(lines[2].hasPrefix("1  ") && lines[2].hasSuffix("remote episode 3"), lines[2])
    let notes = result.stderr.split(separator: "\n")
    XCTAssertEqual(notes.count, 1, result.stderr)
    XCTAssertTrue(notes[0].hasPrefix("podcast: remote: "), result.stderr)
    XCTAssertTrue(
      notes[0].hasSuffix("; listing the copy of the feed kept 3 days ago"), result.stderr)

    let json = try binary.run(["episodes", "remote", "--json"])
    XCTAssertEqual(json.status, 0, json.stderr)
    let document = try XCTUnwrap(try json.json() as? [String: Any])
    XCTAssertEqual((document["episodes"] as? [Any])?.count, 3, "stdout is still one JSON document")
  }

  func testASyncAnsweredWith304MakesTheCopyCurrent() throws {
    let show = Show("steady", episodes: 2, on: server)
    try subscribe(show)
    try sql("UPDATE keptFeeds SET checked = datetime('now', '-5 days')")
    try sql("UPDATE subscriptions SET lastChecked = datetime('now', '-5 days')")
    XCTAssertEqual(try podcast("sync").status, 0)
    eventually("the server to log the sync's 304") {
      responses.entries.last { $0.path == show.feedPath }?.status == 304
    }
    server.stop()

    let result = try podcast("episodes", "steady")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(
      result.stderr.hasSuffix("listing the copy of the feed kept just now\n"), result.stderr)
  }

  func testAFeedThatVanishedIsListedFromTheKeptCopy() throws {
    let show = Show("vanished", episodes: 2, on: server)
    try subscribe(show)
    server.set(show.feedPath, .status(410))

    let result = try podcast("episodes", "vanished")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("vanished episode 2"), result.stdout)
    XCTAssertTrue(result.stderr.contains("410"), "the line says why: \(result.stderr)")
    XCTAssertTrue(result.stderr.contains("kept just now"), result.stderr)
  }

  func testWithoutACopyAnUnreachableFeedIsStillAFailure() throws {
    let show = Show("nocopy", episodes: 2, on: server)
    try subscribe(show)
    try sql("DELETE FROM keptFeeds")
    server.stop()

    let result = try podcast("episodes", "nocopy")
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stdout, "")
    XCTAssertTrue(result.stderr.contains(show.feedURL), result.stderr)
  }

  func testSyncFetchesAFeedWholeWhenTheLibraryHasNoCopyOfIt() throws {
    // A library from before kept copies: validators stored, no copy to go with them.
    let show = Show("upgraded", episodes: 2, on: server)
    try subscribe(show)
    try sql("DELETE FROM keptFeeds")
    let before = server.requests(for: show.feedPath).count

    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    let asked = server.requests(for: show.feedPath).dropFirst(before).map {
      $0.header("if-none-match")
    }
    XCTAssertEqual(asked, [nil, show.etag], "whole once, to keep a copy; then conditional")
    XCTAssertEqual(try copies(), 1)
  }

  func testACopyDamagedOnDiskIsNotListedOnA304ButTheFeedIsFetchedWhole() throws {
    let show = Show("flipped", episodes: 3, on: server)
    try subscribe(show)
    // One byte of the compressed document changed, 40 from its end.
    try sql(
      """
      UPDATE keptFeeds SET copy = CAST(substr(copy, 1, length(copy) - 41)
        || CASE WHEN substr(copy, length(copy) - 40, 1) = X'AA' THEN X'55' ELSE X'AA' END
        || substr(copy, length(copy) - 39) AS BLOB)
      """)
    let before = server.requests(for: show.feedPath).count

    let listed = try episodes("flipped")
    XCTAssertEqual(listed.compactMap { $0["title"] as? String }.count, 3)
    XCTAssertEqual(
      server.requests(for: show.feedPath).dropFirst(before).map { $0.header("if-none-match") },
      [show.etag, nil], "asked conditionally, then for the whole feed")
  }

  func testADryRunKeepsNoCopy() throws {
    let show = Show("dry", episodes: 2, on: server)
    try subscribe(show)
    try sql("DELETE FROM keptFeeds")
    let result = try podcast("sync", "--dry-run")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try copies(), 0, "a dry run writes nothing")
  }

  func testUnsubscribeRemovesTheCopy() throws {
    let show = Show("leaving", episodes: 1, on: server)
    try subscribe(show)
    XCTAssertEqual(try copies(), 1)
    XCTAssertEqual(try podcast("unsubscribe", "leaving").status, 0)
    XCTAssertEqual(try copies(), 0)
  }

  // MARK: - Paged feeds: the copy keeps every page read

  func testAPagedSubscriptionOnA304ListsPageOneFromTheCopyAndReadsTheLaterPages() throws {
    let show = PagedShow("paged", episodes: 30, on: server)
    XCTAssertEqual(try podcast("subscribe", show.feedURL, "--name", "paged").status, 0)
    let pageOne = server.requests.filter { $0.target == show.pagePath(1) }.count

    let listed = try episodes("paged")
    XCTAssertEqual(listed.compactMap { $0["index"] as? Int }, Array(1...30))
    XCTAssertEqual(listed.first?["title"] as? String, show.episode(30).title)
    XCTAssertEqual(listed.last?["title"] as? String, show.episode(1).title)
    XCTAssertFalse(listed.contains { $0["inFeed"] as? Bool == false })
    let asked = server.requests.filter { $0.target == show.pagePath(1) }.dropFirst(pageOne)
    XCTAssertEqual(asked.map { $0.header("if-none-match") }, ["\"paged-p1-v1\""])
    XCTAssertEqual(show.requests(forPage: 3), 2, "subscribe's read, then this listing's")
  }

  /// The copy holds every page subscribe and the first sync read: offline, the whole feed is
  /// listed from it, and no episode of a later page is called gone.
  func testAPagedSubscriptionOfflineListsEveryKeptPage() throws {
    let show = PagedShow("pagedoff", episodes: 30, on: server)
    XCTAssertEqual(
      try podcast("subscribe", show.feedURL, "--name", "pagedoff", "--first", "all").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    server.stop()

    let result = try binary.run(["episodes", "pagedoff", "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let listed = try result.listedEpisodes()
    XCTAssertEqual(listed.compactMap { $0["index"] as? Int }, Array(1...30))
    XCTAssertEqual(listed.first?["title"] as? String, show.episode(30).title)
    XCTAssertEqual(listed.last?["title"] as? String, show.episode(1).title)
    XCTAssertFalse(listed.contains { $0["inFeed"] as? Bool == false })
    XCTAssertTrue(result.stderr.hasSuffix("kept just now\n"), result.stderr)
  }

  /// A later sync reads page one only; the later pages kept before stay behind it, so offline
  /// the new episode and the oldest are both listed.
  func testALaterSyncKeepsTheLaterPagesBehindTheNewPageOne() throws {
    let show = PagedShow("pagedlater", episodes: 30, on: server)
    XCTAssertEqual(
      try podcast("subscribe", show.feedURL, "--name", "pagedlater", "--first", "all").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    show.publish(1)
    let before = show.feedRequests
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(show.feedRequests - before, 1, "page one only")
    server.stop()

    let result = try binary.run(["episodes", "pagedlater", "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let titles = try result.listedEpisodes().compactMap { $0["title"] as? String }
    XCTAssertEqual(titles.first, show.episode(31).title)
    XCTAssertEqual(titles.last, show.episode(1).title)
    XCTAssertGreaterThanOrEqual(titles.count, 30)
  }

  /// A copy kept as page one alone (before pages were kept) lists page one offline and says so.
  func testAPagedCopyOfPageOneAloneSaysSoOffline() throws {
    let show = PagedShow("pagedone", episodes: 30, on: server)
    XCTAssertEqual(
      try podcast("subscribe", show.feedURL, "--name", "pagedone", "--no-pages").status, 0)
    XCTAssertEqual(try podcast("set", "pagedone", "--unset", "pages").status, 0)
    server.stop()

    let result = try binary.run(["episodes", "pagedone", "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let listed = try result.listedEpisodes()
    XCTAssertEqual(listed.count, 10, "page one; the later pages are not 'gone'")
    XCTAssertTrue(
      result.stderr.hasSuffix(
        "kept just now (its first page only: the later pages are not kept)\n"), result.stderr)
  }

  // MARK: - Episodes the feed dropped

  func testADownloadedEpisodeTheFeedDroppedIsListedAfterTheFeedsOwnWithoutAnIndex() throws {
    let show = Show("archive", episodes: 3, on: server)
    try subscribe(show)
    XCTAssertEqual(try podcast("sync").status, 0)
    assertEpisodeFiles([show.episode(3)])
    show.drop(3)
    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    assertEpisodeFiles([show.episode(3)])

    let listed = try episodes("archive")
    XCTAssertEqual(
      listed.compactMap { $0["title"] as? String },
      ["archive episode 2", "archive episode 1", "archive episode 3"])
    XCTAssertEqual(listed[0]["index"] as? Int, 1, "the feed's own numbers are unchanged")
    XCTAssertEqual(listed[1]["index"] as? Int, 2)
    XCTAssertEqual(listed[0]["inFeed"] as? Bool, true)
    let gone = listed[2]
    XCTAssertTrue(gone["index"] is NSNull, "no index: \(gone)")
    XCTAssertEqual(gone["inFeed"] as? Bool, false)
    XCTAssertEqual(gone["state"] as? String, "downloaded")
    XCTAssertEqual(gone["guid"] as? String, "archive-3")
    XCTAssertEqual(gone["published"] as? String, "2024-05-04T00:00:00Z")
    let file = try XCTUnwrap(gone["file"] as? String)
    XCTAssertTrue(FileManager.default.fileExists(atPath: file), file)

    let table = try podcast("episodes", "archive")
    let lines = table.stdout.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines[2].hasPrefix("   1  ") && lines[2].hasSuffix("archive episode 2"), lines[2])
    XCTAssertTrue(
      lines[4].hasPrefix("gone  2024-05-04") && lines[4].contains("done")
        && lines[4].hasSuffix("archive episode 3"), lines[4])
    XCTAssertEqual(lines.last, "(gone: 1 no longer in the feed, known to this library)")

    // `download NAME 1` is still the feed's newest.
    XCTAssertEqual(try podcast("download", "archive", "1").status, 0)
    assertEpisodeFiles([show.episode(3), show.episode(2)])

    // Its owner deletes the file: still known, as deleted.
    try FileManager.default.removeItem(atPath: file)
    let deleted = try XCTUnwrap(try episodes("archive").last)
    XCTAssertEqual(deleted["title"] as? String, "archive episode 3")
    XCTAssertEqual(deleted["state"] as? String, "deleted")
    XCTAssertEqual(deleted["inFeed"] as? Bool, false)
  }

  func testFiltersApplyToDroppedEpisodesAndTheLimitCountsTheFeedsOwnFirst() throws {
    let show = Show("sieve", episodes: 3, on: server)
    try subscribe(show)
    XCTAssertEqual(try podcast("sync").status, 0)
    show.drop(3)

    XCTAssertEqual(try episodes("sieve", "--match", "episode 1$").count, 1)
    XCTAssertEqual(
      try episodes("sieve", "--match", "episode 3$").compactMap { $0["inFeed"] as? Bool }, [false])
    XCTAssertEqual(try episodes("sieve", "--limit", "2").count, 2, "the feed's own fill the limit")
    XCTAssertEqual(try episodes("sieve", "--limit", "3").count, 3)
    let table = try podcast("episodes", "sieve", "--limit", "2")
    XCTAssertTrue(
      table.stdout.hasSuffix(
        "(gone: 1 no longer in the feed, known to this library; 1 not shown)\n"),
      table.stdout)
  }

  func testAMarkedEpisodeTheFeedDroppedIsListedAsSkipped() throws {
    let show = Show("marked", episodes: 3, on: server)
    try subscribe(show)
    XCTAssertEqual(try podcast("mark", "marked", "3", "--skip").status, 0)
    show.drop(1)
    XCTAssertEqual(try podcast("sync").status, 0)

    let listed = try episodes("marked")
    XCTAssertEqual(listed.count, 3)
    XCTAssertEqual(listed.last?["title"] as? String, "marked episode 1")
    XCTAssertEqual(listed.last?["state"] as? String, "skipped")
    XCTAssertEqual(listed.last?["inFeed"] as? Bool, false)
  }

  func testADroppedEpisodeCountsTowardsKeepLikeAnyOtherDownload() throws {
    let show = Show("kept", episodes: 3, on: server)
    try subscribe(show, keep: 2)
    XCTAssertEqual(try podcast("sync").status, 0)
    show.drop(3)
    show.publish(1)  // episode 4
    XCTAssertEqual(try podcast("sync").status, 0)
    assertEpisodeFiles([show.episode(3), show.episode(4)])

    show.publish(1)  // episode 5: the newest two by date stay
    XCTAssertEqual(try podcast("sync").status, 0)
    assertEpisodeFiles([show.episode(4), show.episode(5)])
    // Pruned, it is deleted like any episode whose file went (issue 42), and still listed.
    let pruned = try episodes("kept").first { $0["title"] as? String == "kept episode 3" }
    XCTAssertEqual(pruned?["state"] as? String, "deleted")
    XCTAssertEqual(pruned?["inFeed"] as? Bool, false)
  }
}
