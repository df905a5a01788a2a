import Foundation
import LoopbackServer
import XCTest

/// `podcast sync`, the cron job, end to end: the real binary against feeds on a loopback server.
final class SyncCommandTests: LibraryTestCase {
  func testFirstSyncTakesTheNewestOfEachFeedAndTheSecondCostsOne304Each() throws {
    let shows = (1...50).map { Show("show\($0)", episodes: 3, size: 3_000, on: server) }
    let opml = binary.library + "/feeds.opml"
    let outlines = shows.map {
      "<outline type=\"rss\" text=\"\($0.slug)\" xmlUrl=\"\($0.feedURL)\"/>"
    }
    try Data("<opml version=\"2.0\"><body>\(outlines.joined())</body></opml>".utf8).write(
      to: URL(fileURLWithPath: opml))
    XCTAssertEqual(try podcast("import", opml).status, 0)

    let first = try podcast("sync")
    XCTAssertEqual(first.status, 0, first.stderr)
    assertEpisodeFiles(shows.map(\.newest))
    for show in shows {
      XCTAssertEqual(
        requestCount(show.episode(1)) + requestCount(show.episode(2)), 0,
        "older episodes of \(show.slug) were fetched")
    }

    let before = server.requests.count
    let second = try podcast("sync")
    XCTAssertEqual(second.status, 0, second.stderr)
    let again = server.requests.dropFirst(before)
    XCTAssertEqual(
      Set(again.map(\.path)), Set(shows.map(\.feedPath)), "the second sync asks for the feeds only")
    XCTAssertEqual(again.count, 50)
    for request in again {
      let show = try XCTUnwrap(shows.first { $0.feedPath == request.path })
      XCTAssertEqual(request.header("if-none-match"), show.etag, request.path)
      XCTAssertNotNil(request.header("if-modified-since"), request.path)
    }
    eventually("the server to log 100 feed responses") {
      responses.entries.filter { $0.path.hasSuffix("feed.xml") }.count == 100
    }
    let answers = responses.entries.filter { $0.path.hasSuffix("feed.xml") }.suffix(50)
    XCTAssertEqual(answers.map(\.status), Array(repeating: 304, count: 50))
    assertEpisodeFiles(shows.map(\.newest))
  }

  func testEpisodesPublishedBetweenSyncsAreDownloaded() throws {
    let show = Show("daily", episodes: 3, on: server)
    try subscribe(show)
    XCTAssertEqual(try podcast("sync").status, 0)
    assertEpisodeFiles([show.episode(3)])

    show.publish(2)
    let next = try json("sync", "--json") as? [String: Any]
    let downloaded = try XCTUnwrap(next?["downloaded"] as? [[String: Any]])
    XCTAssertEqual(
      Set(downloaded.compactMap { $0["title"] as? String }), ["daily episode 4", "daily episode 5"])
    assertEpisodeFiles([show.episode(3), show.episode(4), show.episode(5)])
    XCTAssertEqual(requestCount(show.episode(4)), 1)
    XCTAssertEqual(requestCount(show.episode(5)), 1)
    XCTAssertEqual(requestCount(show.episode(1)) + requestCount(show.episode(2)), 0)
  }

  func testPermanentRedirectMovesTheSubscription() throws {
    let show = Show("moved", episodes: 2, at: "/new/feed.xml", on: server)
    server.set(
      "/old/feed.xml",
      .text(FeedFixture.rss(title: "old", episodes: show.episodes, base: server.baseURL)))
    _ = try podcast("subscribe", server.url("/old/feed.xml"), "--name", "moved")
    server.set("/old/feed.xml", .redirect(to: show.feedURL, status: 301))

    let first = try podcast("sync")
    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertTrue(first.stdout.contains("moved"), first.stdout)
    XCTAssertEqual(try subscriptions().first?["feedURL"] as? String, show.feedURL)
    assertEpisodeFiles([show.newest])

    let oldHits = server.requests(for: "/old/feed.xml").count
    let newHits = server.requests(for: show.feedPath).count
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(
      server.requests(for: "/old/feed.xml").count, oldHits, "the next sync still asked the old URL")
    XCTAssertEqual(server.requests(for: show.feedPath).count, newHits + 1)
  }

  func testNewFeedURLInTheChannelMovesTheSubscription() throws {
    let show = Show("renamed", episodes: 2, at: "/v2/feed.xml", on: server)
    let old = Show("renamed", episodes: 2, at: "/v1/feed.xml", on: server)
    old.channelExtra = "<itunes:new-feed-url>\(show.feedURL)</itunes:new-feed-url>"
    old.serve()
    try subscribe(old)

    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try subscriptions().first?["feedURL"] as? String, show.feedURL)
    let oldHits = server.requests(for: old.feedPath).count
    let newHits = server.requests(for: show.feedPath).count
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(server.requests(for: old.feedPath).count, oldHits)
    XCTAssertEqual(server.requests(for: show.feedPath).count, newHits + 1)
  }

  func testKeepPrunesAllButTheNewestFiles() throws {
    let show = Show("kept", episodes: 1, on: server)
    try subscribe(show, keep: 2)
    XCTAssertEqual(try podcast("sync").status, 0)
    for _ in 1...3 {
      show.publish(1)
      let sync = try podcast("sync")
      XCTAssertEqual(sync.status, 0, sync.stderr)
      XCTAssertLessThanOrEqual(binary.episodeFiles().count, 2)
    }
    assertEpisodeFiles([show.episode(3), show.episode(4)])
  }

  func testOneBrokenFeedDoesNotStopTheOthers() throws {
    let good = [Show("good1", episodes: 2, on: server), Show("good2", episodes: 2, on: server)]
    let broken = ["error500", "webpage", "silent"].map { Show($0, episodes: 2, on: server) }
    for show in good + broken { try subscribe(show) }
    server.set(broken[0].feedPath, .status(500, body: "Internal Server Error"))
    server.set(
      broken[1].feedPath, .html("<html><body><h1>Welcome to the hotel wifi</h1></body></html>"))
    server.set(
      broken[2].feedPath,
      .text("<rss>", contentType: "application/rss+xml").stalling(after: 0, seconds: nil))
    binary.environment["PODCAST_TIMEOUT"] = "1"

    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 1, sync.stderr)
    assertEpisodeFiles(good.map(\.newest))
    let lines = sync.stderr.split(separator: "\n").map(String.init)
    for (show, reason) in zip(broken, ["500", "HTML", "timed out"]) {
      let named = lines.filter { $0.contains(show.feedURL) }
      XCTAssertEqual(named.count, 1, "\(show.slug): \(sync.stderr)")
      XCTAssertTrue(
        named.first?.contains(reason) ?? false, "\(show.slug) without \(reason): \(sync.stderr)")
    }
    XCTAssertFalse(sync.stderr.contains("good1") || sync.stderr.contains("good2"), sync.stderr)

    let again = try XCTUnwrap(try podcast("sync", "--json").json() as? [String: Any])
    let failed = try XCTUnwrap(again["failed"] as? [[String: Any]])
    XCTAssertEqual(Set(failed.compactMap { $0["url"] as? String }), Set(broken.map(\.feedURL)))
    for item in failed {
      XCTAssertFalse((item["error"] as? String ?? "").isEmpty, "\(item)")
      XCTAssertNotNil(item["title"] as? String, "\(item)")
    }
    XCTAssertEqual((again["downloaded"] as? [Any])?.count, 0)
  }

  func testDryRunChangesNothingAndNamesThePaths() throws {
    let shows = [Show("alpha", episodes: 3, on: server), Show("beta", episodes: 2, on: server)]
    for show in shows { try subscribe(show) }

    let text = try podcast("sync", "--dry-run")
    XCTAssertEqual(text.status, 0, text.stderr)
    let planned = try XCTUnwrap(try json("sync", "--dry-run", "--json") as? [String: Any])
    let wouldDownload = try XCTUnwrap(planned["wouldDownload"] as? [[String: Any]])
    let plannedFiles = wouldDownload.compactMap { $0["file"] as? String }
    XCTAssertEqual(plannedFiles.count, 2)
    for file in plannedFiles {
      XCTAssertTrue(file.hasPrefix(binary.episodesDirectory + "/"), file)
      XCTAssertTrue(text.stdout.contains(file), "\(file) not in: \(text.stdout)")
    }
    XCTAssertEqual(binary.episodeFiles(), [])
    XCTAssertTrue(
      shows.allSatisfy { requestCount($0.newest) == 0 }, "a dry run downloaded something")
    XCTAssertTrue(
      try subscriptions().allSatisfy { $0["lastChecked"] is NSNull },
      "a dry run marked feeds checked")

    let real = try XCTUnwrap(try json("sync", "--json") as? [String: Any])
    XCTAssertEqual(Set(real.keys), ["downloaded", "skipped", "failed"])
    let downloaded = try XCTUnwrap(real["downloaded"] as? [[String: Any]])
    XCTAssertEqual(Set(downloaded.compactMap { $0["file"] as? String }), Set(plannedFiles))
    XCTAssertEqual(
      Set(downloaded.compactMap { $0["url"] as? String }),
      Set(shows.map { server.url($0.newest.path) }))
    XCTAssertEqual(
      Set(downloaded.compactMap { $0["title"] as? String }), Set(shows.map(\.newest.title)))
    XCTAssertEqual(downloaded.compactMap { $0["bytes"] as? Int }, [4_000, 4_000])
    XCTAssertEqual((real["failed"] as? [Any])?.count, 0)
    assertEpisodeFiles(shows.map(\.newest))
  }

  func testQuietPrintsNothingOnSuccessButReportsFailures() throws {
    let show = Show("hush", episodes: 2, on: server)
    try subscribe(show)
    let quiet = try podcast("sync", "--quiet")
    XCTAssertEqual(quiet.status, 0, quiet.stderr)
    XCTAssertEqual(quiet.stdout, "")
    XCTAssertEqual(quiet.stderr, "")
    assertEpisodeFiles([show.newest])

    show.publish(1)
    server.set(show.newest.path, .status(404))
    let failing = try podcast("sync", "--quiet")
    XCTAssertEqual(failing.status, 1)
    XCTAssertTrue(failing.stderr.contains("404"), failing.stderr)
  }

  func testOverlappingSyncExits75UnlessAskedToWait() throws {
    let show = Show("slow", episodes: 1, size: 180_000, on: server)
    try subscribe(show)
    // The body is held after 60,000 bytes until the test lets go, so the first sync is
    // running for as long as the test looks (the hold is not a stall for it to give up on).
    show.enclosure = { $0.stalling(after: 60_000, seconds: nil) }
    show.serve()
    binary.environment["PODCAST_TIMEOUT"] = "120"

    let running = try binary.start(["sync"])
    XCTAssertTrue(
      server.wait { self.server.bodyBytesSent(for: show.newest.path) == 60_000 }, "the hold began")
    try eventually("the first sync to start downloading") {
      try statusRow(for: show.newest)?["state"] as? String == "downloading"
    }
    let busy = try podcast("sync")
    XCTAssertEqual(busy.status, 75)
    XCTAssertEqual(busy.stderr.split(separator: "\n").count, 1, busy.stderr)
    XCTAssertTrue(busy.stderr.contains("another sync"), busy.stderr)
    XCTAssertEqual(busy.stdout, "")

    let waiting = try binary.start(["sync", "--wait"])
    eventually("the second sync to wait for the first one's lock") { waiting.isWaitingForALock }
    server.releaseStalls()
    let first = try running.wait()
    XCTAssertEqual(first.status, 0, first.stderr)
    let queued = try waiting.wait()
    XCTAssertEqual(queued.status, 0, queued.stderr)
    XCTAssertEqual(
      queued.stderr,
      "podcast: waiting for another sync of \(binary.library) to finish (pid \(running.pid))\n",
      "one line says what it waits for")
    assertEpisodeFiles([show.newest])
    XCTAssertEqual(requestCount(show.newest), 1, "the queued sync downloaded the episode again")
  }

  func testSyncKilledMidDownloadResumesOnTheNextRun() throws {
    let show = Show("killed", episodes: 2, size: 200_000, on: server)
    try subscribe(show)
    // Held mid-body until the kill; the hold is not a stall for the sync to give up on.
    show.enclosure = { $0.stalling(after: 80_000, seconds: nil) }
    show.serve()
    binary.environment["PODCAST_TIMEOUT"] = "120"

    let running = try binary.start(["sync"])
    XCTAssertTrue(
      server.wait { self.server.bodyBytesSent(for: show.newest.path) == 80_000 }, "the hold began")
    try eventually("part of the episode to arrive") {
      (try statusRow(for: show.newest)?["bytes"] as? Int ?? 0) > 0
    }
    running.signal(SIGKILL)
    _ = try? running.wait()
    XCTAssertEqual(binary.episodeFiles(), [])

    show.enclosure = { $0 }
    show.serve()
    let rerun = try podcast("sync")
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    assertEpisodeFiles([show.newest])
    let range = server.requests(for: show.newest.path).last?.header("range") ?? ""
    XCTAssertTrue(
      range.hasPrefix("bytes=") && !range.hasPrefix("bytes=0-"), "no resuming Range: \(range)")
    XCTAssertEqual(requestCount(show.episode(1)), 0)
    XCTAssertEqual(try subscriptions().count, 1)
    XCTAssertEqual(try statusRow(for: show.newest)?["state"] as? String, "done")
    XCTAssertEqual(binary.partialFiles(), [])
  }

  func testCtrlCExits130AndTheNextRunFinishes() throws {
    let show = Show("interrupted", episodes: 1, size: 200_000, on: server)
    try subscribe(show)
    // Held mid-body until the interrupt; the hold is not a stall for the sync to give up on.
    show.enclosure = { $0.stalling(after: 80_000, seconds: nil) }
    show.serve()
    binary.environment["PODCAST_TIMEOUT"] = "120"

    let running = try binary.start(["sync"])
    XCTAssertTrue(
      server.wait { self.server.bodyBytesSent(for: show.newest.path) == 80_000 }, "the hold began")
    try eventually("part of the episode to arrive") {
      (try statusRow(for: show.newest)?["bytes"] as? Int ?? 0) > 0
    }
    running.signal(SIGINT)
    let interrupted = try running.wait(timeout: 10)
    XCTAssertEqual(interrupted.status, 130, interrupted.stderr)
    XCTAssertTrue(interrupted.stderr.contains("interrupted"), interrupted.stderr)
    XCTAssertEqual(binary.episodeFiles(), [])
    XCTAssertEqual(try statusRow(for: show.newest)?["state"] as? String, "paused")

    show.enclosure = { $0 }
    show.serve()
    let rerun = try podcast("sync")
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    assertEpisodeFiles([show.newest])
    XCTAssertNotNil(
      server.requests(for: show.newest.path).last?.header("range"), "the rerun started over")
  }

  /// The kill lands while one feed is still coming in; the fast feed's new episode may be
  /// anywhere by then (downloads start as each feed is planned): queued, partly fetched or in
  /// place. The next run ends with every episode either way.
  func testSyncKilledWhileCheckingFeedsStillGetsTheNewEpisodesNextTime() throws {
    let fast = Show("fast", episodes: 1, on: server)
    let slow = Show("slow", episodes: 1, on: server)
    for show in [fast, slow] { try subscribe(show) }
    XCTAssertEqual(try podcast("sync").status, 0)
    fast.publish(1)
    server.set(
      slow.feedPath,
      .text("<rss>", contentType: "application/rss+xml").stalling(after: 0, seconds: nil))

    let running = try binary.start(["sync"])
    eventually("the fast feed to be answered") {
      responses.entries.filter { $0.path == fast.feedPath }.count == 3
    }
    eventually("the slow feed to be asked for") {
      server.requests.contains { $0.path == slow.feedPath }
    }
    // The slow feed is held for good, so the kill lands while the feeds are being checked.
    running.signal(SIGKILL)
    _ = try? running.wait()

    slow.serve()
    let rerun = try podcast("sync")
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    assertEpisodeFiles([fast.episode(1), slow.episode(1), fast.episode(2)])
  }

  func testUnknownOrAmbiguousNameIsOneLineAndChangesNothing() throws {
    for slug in ["alpha", "alpine"] { try subscribe(Show(slug, episodes: 1, on: server)) }
    let before = server.requests.count
    for (name, expected) in [("al", ["alpha", "alpine"]), ("zebra", ["zebra"])] {
      let result = try podcast("sync", name)
      XCTAssertEqual(result.status, 1, name)
      XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
      for word in expected {
        XCTAssertTrue(result.stderr.contains(word), "\(name): \(result.stderr)")
      }
    }
    XCTAssertEqual(server.requests.count, before, "a sync with a bad name fetched something")
    XCTAssertEqual(binary.episodeFiles(), [])

    let chosen = try podcast("sync", "alpi")
    XCTAssertEqual(chosen.status, 0, chosen.stderr)
    XCTAssertEqual(
      server.requests.dropFirst(before).filter { $0.path.hasSuffix("feed.xml") }.map(\.path),
      ["/alpine/feed.xml"])
  }

  func testLibraryThatCannotBeCreatedIsAClearError() throws {
    let blocker = binary.library + "/not-a-directory"
    try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
    binary.environment["PODCAST_LIBRARY"] = blocker + "/library"
    let result = try podcast("sync")
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains(blocker), result.stderr)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: blocker)), Data("x".utf8))
  }

  /// A cron job that finds no subscriptions (run as the wrong user, or with the wrong HOME)
  /// says so on stderr even with --quiet or --json; exit 0 all the same.
  func testSyncWithNoSubscriptionsSaysSoEvenQuietly() throws {
    for arguments in [["sync", "--quiet"], ["sync", "--json"], ["sync", "--dry-run", "--quiet"]] {
      let result = try binary.run(arguments)
      XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
      XCTAssertEqual(
        result.stderr,
        "podcast: no subscriptions in \(binary.library): nothing to sync (add one with "
          + "`podcast subscribe FEED`)\n", "\(arguments)")
    }
    let json = try binary.run(["sync", "--json"])
    XCTAssertNotNil(try json.json() as? [String: Any], "the document still comes: \(json.stdout)")
    let plain = try binary.run(["sync"])
    XCTAssertEqual(plain.stdout, "No subscriptions yet. Add one with `podcast subscribe FEED`.\n")
    XCTAssertEqual(plain.stderr, "")
  }

  /// A feed that keeps failing shows it in `subscriptions`, not only in `--json`'s lastError,
  /// until a sync reads it again.
  func testAFailingFeedIsMarkedInTheSubscriptionsTable() throws {
    let show = Show("flaky", episodes: 1, on: server)
    try subscribe(show)
    server.set(show.feedPath, .status(404))
    XCTAssertEqual(try podcast("sync").status, 1)
    let failing = try podcast("subscriptions").stdout
    XCTAssertTrue(failing.contains("\n   failing: "), failing)
    XCTAssertTrue(failing.contains("404"), failing)
    show.serve()
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertFalse(try podcast("subscriptions").stdout.contains("failing"))
  }
}
