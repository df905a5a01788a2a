import Foundation
import LoopbackServer
import XCTest

/// Paged feeds (RFC 5005, issue 26): a Podlove-style feed of 30 episodes on three pages of 10,
/// read as one feed by `episodes`, `download`, `subscribe` and the first sync; later syncs
/// read page one only unless it is all new; broken chains end with a message and the pages read.
final class PagedFeedTests: LibraryTestCase {
  private func titles(_ document: Any) throws -> [String] {
    let episodes = try XCTUnwrap((document as? [String: Any])?["episodes"] as? [[String: Any]])
    return episodes.compactMap { $0["title"] as? String }
  }

  private func newestFirst(_ show: PagedShow, _ numbers: ClosedRange<Int>) -> [String] {
    numbers.reversed().map { show.episode($0).title }
  }

  func testEpisodesListsEveryPageInOrderWithIndexesAcrossPages() throws {
    let show = PagedShow("freak", episodes: 30, on: server)
    let result = try podcast("episodes", show.feedURL, "--json")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stderr, "")
    let document = try result.json()
    XCTAssertEqual(try titles(document), newestFirst(show, 1...30))
    let episodes = try XCTUnwrap((document as? [String: Any])?["episodes"] as? [[String: Any]])
    XCTAssertEqual(episodes.compactMap { $0["index"] as? Int }, Array(1...30))
    let podcast = try XCTUnwrap((document as? [String: Any])?["podcast"] as? [String: Any])
    XCTAssertEqual(podcast["feedURL"] as? String, show.feedURL, "the feed is page one")
    for page in 1...3 { XCTAssertEqual(show.requests(forPage: page), 1, "page \(page)") }
  }

  func testNoPagesListsPageOneOnly() throws {
    let show = PagedShow("short", episodes: 30, on: server)
    let result = try podcast("episodes", show.feedURL, "--json", "--no-pages")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try titles(try result.json()), newestFirst(show, 21...30))
    XCTAssertEqual(show.requests(forPage: 2), 0)
  }

  func testDownloadByAnIndexOnTheThirdPage() throws {
    let show = PagedShow("deep", episodes: 30, on: server)
    let result = try podcast("download", show.feedURL, "25")
    XCTAssertEqual(result.status, 0, result.stderr)
    // The 25th newest of 30 is the 6th oldest.
    assertEpisodeFiles([show.episode(6)])
    XCTAssertEqual(requestCount(show.episode(6)), 1)
  }

  func testSubscribeFirstAllThenSyncDownloadsEveryPageAndALaterSyncCostsOneRequest() throws {
    let show = PagedShow("archive", episodes: 30, on: server)
    let subscribed = try podcast("subscribe", show.feedURL, "--name", "archive", "--first", "all")
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    XCTAssertTrue(subscribed.stdout.contains("downloads 30 episodes"), subscribed.stdout)

    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    assertEpisodeFiles(show.episodes)

    show.publish(1)
    let before = show.feedRequests
    let next = try json("sync", "--json") as? [String: Any]
    let downloaded = try XCTUnwrap(next?["downloaded"] as? [[String: Any]])
    XCTAssertEqual(downloaded.compactMap { $0["title"] as? String }, [show.episode(31).title])
    XCTAssertEqual(show.feedRequests - before, 1, "page one holds episodes already seen")
    XCTAssertEqual(show.requests(forPage: 1), 3)
  }

  func testAnImportedSubscriptionsFirstSyncReadsEveryPageAndExportKeepsNoPages() throws {
    let show = PagedShow("imported", episodes: 30, on: server)
    let opml = binary.library + "/feeds.opml"
    try FileManager.default.createDirectory(
      atPath: binary.library, withIntermediateDirectories: true)
    try Data(
      """
      <opml version="2.0" xmlns:podcast="urn:x-podcast-cli:subscription-settings"><body>\
      <outline type="rss" text="imported" xmlUrl="\(show.feedURL)" podcast:first="all"/>\
      </body></opml>
      """.utf8
    ).write(to: URL(fileURLWithPath: opml))
    XCTAssertEqual(try podcast("import", opml).status, 0)
    XCTAssertEqual(show.feedRequests, 0, "import reads no feed")

    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    assertEpisodeFiles(show.episodes)
    XCTAssertEqual(show.feedRequests, 3)

    XCTAssertEqual(try podcast("set", "imported", "--no-pages").status, 0)
    let exported = try podcast("export")
    XCTAssertTrue(exported.stdout.contains(#"podcast:pages="false""#), exported.stdout)
  }

  func testLaterSyncsFollowOnlyPagesThatAreAllNew() throws {
    let show = PagedShow("burst", episodes: 30, on: server)
    let imported = try podcast("subscribe", show.feedURL, "--name", "burst", "--first", "none")
    XCTAssertEqual(imported.status, 0, imported.stderr)
    XCTAssertEqual(try podcast("sync").status, 0)
    assertEpisodeFiles([])

    // Twelve new episodes: page one is all new, page two holds the one before them.
    show.publish(12)
    let before = show.feedRequests
    let sync = try json("sync", "--json") as? [String: Any]
    let downloaded = try XCTUnwrap(sync?["downloaded"] as? [[String: Any]])
    XCTAssertEqual(Set(downloaded.compactMap { $0["title"] as? String }).count, 12)
    XCTAssertEqual(show.feedRequests - before, 2, "page two holds a seen episode: no page three")
  }

  func testSyncNoPagesReadsPageOneOnlyThisRun() throws {
    let show = PagedShow("hurry", episodes: 30, on: server)
    XCTAssertEqual(
      try podcast("subscribe", show.feedURL, "--name", "hurry", "--first", "none").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    show.publish(12)
    let before = show.feedRequests
    let sync = try json("sync", "--no-pages", "--json") as? [String: Any]
    let downloaded = try XCTUnwrap(sync?["downloaded"] as? [[String: Any]])
    XCTAssertEqual(downloaded.count, 10, "the new episodes page one lists")
    XCTAssertEqual(show.feedRequests - before, 1)
  }

  func testAFailingThirdPageListsTheFirstTwoAndSaysWhichPage() throws {
    let show = PagedShow("broken", episodes: 30, on: server)
    show.pageRoute[3] = .status(500, body: "database error")
    show.serve()
    let result = try podcast("episodes", show.feedURL, "--json")
    XCTAssertEqual(result.status, 1, "episodes may be missing: a script must be able to tell")
    XCTAssertEqual(try titles(try result.json()), newestFirst(show, 11...30))
    let lines = result.stderr.split(separator: "\n")
    XCTAssertEqual(lines.count, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains("page 3"), result.stderr)
    XCTAssertTrue(result.stderr.contains(show.pageURL(3)), result.stderr)
    XCTAssertTrue(result.stderr.contains("HTTP 500"), result.stderr)
  }

  func testDownloadAllWithAFailingPageFetchesThePagesReadAndExitsOne() throws {
    let show = PagedShow("halfway", episodes: 12, perPage: 4, on: server)
    show.pageRoute[3] = .status(503)
    show.serve()
    let result = try podcast("download", show.feedURL, "--all")
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains(show.pageURL(3)), result.stderr)
    assertEpisodeFiles(Array(show.episodes.prefix(8)))

    let beyond = try podcast("download", show.feedURL, "10")
    XCTAssertEqual(beyond.status, 1, "the page failed; the index is not a typo (64)")
    XCTAssertTrue(beyond.stderr.contains("page 3"), beyond.stderr)
  }

  func testAFirstSyncWithAFailingPagePlansThePagesReadAndTheNextSyncFinishes() throws {
    let show = PagedShow("patchy", episodes: 30, on: server)
    show.pageRoute[3] = .status(404)
    show.serve()
    let subscribed = try podcast("subscribe", show.feedURL, "--name", "patchy", "--first", "all")
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    XCTAssertTrue(subscribed.stderr.contains(show.pageURL(3)), subscribed.stderr)

    let first = try podcast("sync")
    XCTAssertEqual(first.status, 1, first.stderr)
    XCTAssertTrue(first.stderr.contains(show.pageURL(3)), first.stderr)
    assertEpisodeFiles(Array(show.episodes.prefix(20)))

    show.pageRoute = [:]
    show.serve()
    let second = try podcast("sync")
    XCTAssertEqual(second.status, 0, second.stderr)
    assertEpisodeFiles(show.episodes)
    XCTAssertEqual(requestCount(show.episode(30)), 1, "nothing downloaded twice")

    let before = show.feedRequests
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(show.feedRequests - before, 1, "back to one request once nothing is missing")
  }

  func testSyncTriesAPassingServerErrorOnAPageAgain() throws {
    let show = PagedShow("hiccup", episodes: 30, on: server)
    show.pageRoute[3] = .sequence([
      .status(503), .text(show.page(3), contentType: "application/rss+xml"),
    ])
    show.serve()
    XCTAssertEqual(
      try podcast("subscribe", show.feedURL, "--name", "hiccup", "--first", "all", "--no-pages")
        .status, 0)
    // Before the first sync, reading every page again changes what it takes: subscribe's
    // choice from page one is forgotten.
    XCTAssertEqual(try podcast("set", "hiccup", "--unset", "pages").status, 0)
    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertEqual(show.requests(forPage: 3), 2)
    assertEpisodeFiles(show.episodes)
  }

  func testAFeedThatFailedWholeIsReadAsUsualNextTime() throws {
    let show = PagedShow("outage", episodes: 30, on: server)
    XCTAssertEqual(try podcast("subscribe", show.feedURL, "--name", "outage").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    show.pageRoute[1] = .status(404)
    show.serve()
    XCTAssertEqual(try podcast("sync").status, 1)
    show.pageRoute = [:]
    show.publish(1)
    let before = show.feedRequests
    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertEqual(show.feedRequests - before, 1, "nothing was hidden: page one is enough")
    assertEpisodeFiles([show.episode(30), show.episode(31)])
  }

  func testTheFirstSyncPolicyHoldsWhenAFailedFirstSyncIsFinished() throws {
    let show = PagedShow("policy", episodes: 30, on: server)
    show.pageRoute[2] = .status(404)
    show.serve()
    XCTAssertEqual(try podcast("subscribe", show.feedURL, "--name", "policy").status, 0)
    XCTAssertEqual(try podcast("sync").status, 1)
    assertEpisodeFiles([show.newest])

    show.pageRoute = [:]
    show.serve()
    let second = try podcast("sync")
    XCTAssertEqual(second.status, 0, second.stderr)
    XCTAssertEqual(show.requests(forPage: 3), 1, "the run after a failure reads every page")
    assertEpisodeFiles([show.newest])
  }

  /// The other way a first sync fails, with nothing read: unlike a failed page, it leaves
  /// the choice `subscribe` made alone, so what is published after it is all new.
  func testAFirstSyncThatFailedWholeLeavesEpisodesPublishedAfterSubscribeNew() throws {
    let show = Show("flaky", episodes: 3, on: server)
    try subscribe(show)
    server.set(show.feedPath, .status(404))
    let failed = try podcast("sync")
    XCTAssertEqual(failed.status, 1, failed.stderr)
    assertEpisodeFiles([])
    show.publish(2)
    let sync = try podcast("sync")
    XCTAssertEqual(sync.status, 0, sync.stderr)
    assertEpisodeFiles([show.episode(3), show.episode(4), show.episode(5)])
  }

  func testAPageLoopEndsWithANoteAndEveryEpisodeOnce() throws {
    let show = PagedShow("circle", episodes: 30, on: server)
    show.nextLink[3] = show.feedURL
    show.serve()
    let result = try podcast("episodes", show.feedURL, "--json")
    XCTAssertEqual(result.status, 0, "every page of the chain was read")
    XCTAssertEqual(try titles(try result.json()), newestFirst(show, 1...30))
    XCTAssertTrue(result.stderr.contains("links back to \(show.feedURL)"), result.stderr)
    XCTAssertEqual(show.requests(forPage: 1), 1)
  }

  /// A loop ends the chain as its last page would: what the pages no longer list is gone.
  func testAfterAPageLoopAnEpisodeNoLongerListedIsShownAsGone() throws {
    let show = PagedShow("ring", episodes: 30, on: server)
    show.serve()
    XCTAssertEqual(try podcast("subscribe", show.feedURL, "--name", "ring").status, 0)
    let download = try podcast("download", "ring", "25")
    XCTAssertEqual(download.status, 0, download.stderr)
    // Page two links back to page one now: page three's episodes are out of the feed.
    show.nextLink[2] = show.feedURL
    show.serve()
    let result = try podcast("episodes", "ring", "--json")
    XCTAssertEqual(result.status, 0, result.stderr)
    let listed = try result.listedEpisodes()
    XCTAssertEqual(listed.count, 21, "pages one and two, then the one downloaded episode")
    let gone = try XCTUnwrap(listed.last)
    XCTAssertEqual(gone["title"] as? String, show.episode(6).title)
    XCTAssertEqual(gone["inFeed"] as? Bool, false)
    XCTAssertTrue(gone["index"] is NSNull, "\(gone)")
  }

  func testAnEpisodeRepeatedOnTheNextPageIsListedOnce() throws {
    let show = PagedShow("shifted", episodes: 20, on: server)
    // Page one as served before an episode was published, page two after: its first item
    // is page one's last.
    show.pageRoute[1] = .text(show.page(1), contentType: "application/rss+xml")
    show.publish(1)
    let result = try podcast("episodes", show.feedURL, "--json")
    XCTAssertEqual(result.status, 0, result.stderr)
    let listed = try titles(try result.json())
    XCTAssertEqual(listed, newestFirst(show, 1...20), "page one is as it was; 21 is not on it")
  }

  func testAPrivatePagedFeedSendsItsCredentialsToEveryPage() throws {
    let show = PagedShow("members", episodes: 30, on: server)
    show.pageWrapper = { $0.requiringBasicAuth(user: "ada", password: "s3cret") }
    show.serve()
    var withPassword = binary!
    withPassword.environment["PODCAST_PASSWORD"] = "s3cret"
    let subscribed = try withPassword.run(
      ["subscribe", show.feedURL, "--user", "ada", "--name", "members"])
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)

    let listed = try podcast("episodes", "members", "--json")
    XCTAssertEqual(listed.status, 0, listed.stderr)
    XCTAssertEqual(try titles(try listed.json()).count, 30, listed.stderr)
    XCTAssertFalse(listed.stdout.contains("s3cret"))
  }

  func testAPrivateFeedsFailingPageIsNamedWithoutItsSecrets() throws {
    let show = PagedShow("vault", episodes: 30, on: server)
    show.pageWrapper = { $0.requiringBasicAuth(user: "ada", password: "s3cret") }
    show.pageRoute[3] = .status(500)
    show.serve()
    var withPassword = binary!
    withPassword.environment["PODCAST_PASSWORD"] = "s3cret"
    XCTAssertEqual(
      try withPassword.run(["subscribe", show.feedURL, "--user", "ada", "--name", "vault"]).status,
      0)
    let listed = try podcast("episodes", "vault")
    XCTAssertEqual(listed.status, 1)
    XCTAssertEqual(
      listed.stderr,
      "podcast: page 3 of the feed: \(show.pageURL(3)): HTTP 500 Internal Server Error; "
        + "its episodes and those of later pages are missing\n")
  }

  func testATokenInAPageLinkIsMaskedInTheMessage() throws {
    let show = PagedShow("patron", episodes: 10, on: server)
    let token = "auth=0123456789abcdef"
    let link = #"<atom:link rel="next" href="/patron/rss?\#(token)&amp;paged=2"/>"#
    let pageOne = show.page(1).replacingOccurrences(
      of: "<generator>", with: link + "<generator>")
    server.set("/patron/rss?\(token)", .text(pageOne, contentType: "application/rss+xml"))
    server.set("/patron/rss?\(token)&paged=2", .status(404))
    let listed = try podcast("episodes", server.url("/patron/rss?\(token)"))
    XCTAssertEqual(listed.status, 1)
    XCTAssertTrue(
      listed.stderr.contains("page 2") && listed.stderr.contains("HTTP 404"), listed.stderr)
    XCTAssertFalse(listed.stderr.contains("0123456789abcdef"), listed.stderr)
    XCTAssertFalse(listed.stdout.contains("0123456789abcdef"), listed.stdout)
  }

  func testTheNoPagesSettingIsShownAndKeptAndUndone() throws {
    let show = PagedShow("setting", episodes: 30, on: server)
    XCTAssertEqual(
      try podcast("subscribe", show.feedURL, "--name", "setting", "--no-pages", "--first", "all")
        .stdout.contains("downloads 10 episodes"), true)
    XCTAssertEqual(show.requests(forPage: 2), 0)
    var settings = try XCTUnwrap(try subscriptions().first?["settings"] as? [String: Any])
    XCTAssertEqual(settings["pages"] as? Bool, false)
    let listed = try podcast("episodes", "setting", "--json")
    XCTAssertEqual(try titles(try listed.json()).count, 10, "the subscription's setting applies")

    XCTAssertEqual(try podcast("set", "setting", "--unset", "pages").status, 0)
    settings = try XCTUnwrap(try subscriptions().first?["settings"] as? [String: Any])
    XCTAssertTrue(settings["pages"] is NSNull)
    XCTAssertEqual(try titles(try podcast("episodes", "setting", "--json").json()).count, 30)
  }
}
