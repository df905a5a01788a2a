import AccountServerTestSupport
import Foundation
import LoopbackServer
import XCTest

/// The account exchange through the binary against the tests' own gpodder.net-API server
/// (`LoopbackGpodder`), for what oPodSync never does: rewriting a URL (`update_urls`),
/// answering badly, and taking the API's room its own way (normalised URLs, a strict `since`,
/// null timestamps, errors as `detail`, an answer lost after storing).
final class AccountFakeServerTests: LibraryTestCase {
  private var gpodder: LoopbackGpodder!
  private let subscriptionsPath = "/api/2/subscriptions/alice/podcast-box.json"

  override func setUpWithError() throws {
    try super.setUpWithError()
    gpodder = try LoopbackGpodder()
    gpodder.registerDevice("phone")
    binary.environment["PODCAST_SYNC_PASSWORD"] = LoopbackGpodder.password
    let linked = try link()
    XCTAssertEqual(linked.status, 0, linked.stderr)
  }

  override func tearDownWithError() throws {
    gpodder.stop()
    try super.tearDownWithError()
  }

  private func link(_ extra: String...) throws -> PodcastBinary.Result {
    try binary.run(
      [
        "account", "add", gpodder.url, "--user", LoopbackGpodder.user, "--device", "podcast-box",
        "--api", "gpodder",
      ] + extra)
  }

  /// The `add` and `remove` lists of every push, in order.
  private func pushes() throws -> [(add: [String], remove: [String])] {
    try gpodder.server.requests(for: subscriptionsPath).filter { $0.method == "POST" }.map {
      request in
      let body = try XCTUnwrap(
        try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
      return (body["add"] as? [String] ?? [], body["remove"] as? [String] ?? [])
    }
  }

  private func downloadActions() -> [LoopbackGpodder.Action] {
    gpodder.actions.filter { $0.action == "download" }
  }

  private func account() throws -> [String: Any] {
    try XCTUnwrap(try json("account", "--json") as? [String: Any])
  }

  // MARK: The server's own ways

  func testAURLTheServerRewritesIsFollowedAsOneSubscription() throws {
    let show = Show("moved", episodes: 2, on: server)
    let rewritten = server.url("/moved/canonical.xml")
    server.set(
      "/moved/canonical.xml",
      .text(FeedFixture.rss(title: "moved show", episodes: show.episodes, base: server.baseURL)))
    XCTAssertEqual(try podcast("subscribe", show.feedURL).status, 0)
    gpodder.habits.rewrites = [show.feedURL: rewritten]

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertEqual(try pushes().map(\.add), [[show.feedURL]])
    let listed = try subscriptions()
    XCTAssertEqual(listed.count, 1, "\(listed)")
    XCTAssertEqual(listed.first?["feedURL"] as? String, rewritten)

    // The server's echo under the new URL is the same subscription, and the move is its own.
    XCTAssertEqual(gpodder.subscriptions, [rewritten])
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try subscriptions().count, 1)
    let pushed = try pushes()
    XCTAssertEqual(pushed.count, 1, "nothing sent back: \(pushed)")
  }

  func testAPrivateFeedIsSentOnlyWhenShared() throws {
    let open = Show("open", episodes: 1, on: server)
    let members = Show("members", episodes: 1, at: "/members/feed.xml", on: server)
    let secret = members.feedURL + "?token=abc123"
    server.set(
      "/members/feed.xml?token=abc123",
      .text(
        FeedFixture.rss(title: "members show", episodes: members.episodes, base: server.baseURL)))
    XCTAssertEqual(try podcast("subscribe", open.feedURL).status, 0)
    XCTAssertEqual(try podcast("subscribe", secret, "--name", "members").status, 0)

    XCTAssertEqual(try podcast("sync").status, 0)

    XCTAssertEqual(try pushes().map(\.add), [[open.feedURL]])
    XCTAssertEqual(
      gpodder.actions.map(\.podcast), [open.feedURL],
      "no action of the private feed: an action subscribes the server to its feed")

    XCTAssertEqual(try podcast("set", "members", "--share-with-account").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try pushes().last?.add, [secret], "shared: sent as it is")
  }

  func testAnUnreadableAnswerIsOneLineAndTheFeedsStillSync() throws {
    let show = Show("steady", episodes: 1, on: server)
    XCTAssertEqual(try podcast("subscribe", show.feedURL).status, 0)
    gpodder.answer("subscriptions", with: .html("<html>maintenance</html>"))

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 1)
    XCTAssertEqual(sync.stderr.split(separator: "\n").count, 1, sync.stderr)
    XCTAssertTrue(sync.stderr.contains("sync server \(gpodder.url)"), sync.stderr)
    XCTAssertTrue(sync.stderr.contains("an HTML page instead of JSON"), sync.stderr)
    assertEpisodeFiles([show.episode(1)])
    let account = try account()
    XCTAssertEqual(account["pendingChanges"] as? Int, 1, "the change waits for the next exchange")
    XCTAssertNotNil(account["lastError"] as? String)
    XCTAssertFalse(sync.stderr.contains(LoopbackGpodder.password))

    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try pushes().map(\.add), [[show.feedURL]])
    XCTAssertTrue(try self.account()["lastError"] is NSNull)
  }

  func testWithNoAccountFlagTheServerIsNotAskedAndTheDownloadsWait() throws {
    let show = Show("later", episodes: 1, on: server)
    XCTAssertEqual(try podcast("subscribe", show.feedURL).status, 0)
    let before = gpodder.server.requests.count

    XCTAssertEqual(try podcast("sync", "--no-account").status, 0)

    XCTAssertEqual(gpodder.server.requests.count, before)
    assertEpisodeFiles([show.episode(1)])
    XCTAssertEqual(try account()["pendingActions"] as? Int, 1)
    XCTAssertEqual(try podcast("account", "sync").status, 0)
    XCTAssertEqual(downloadActions().count, 1)
  }

  // MARK: An answer lost after the server stored the actions (issue 42, item 2)

  /// A feed whose enclosure URLs carry `%2F` and `+`, one episode with a GUID, one without.
  private func encodedShow() -> String {
    let items = [
      ("one", "/media/one%2Fa+b.mp3", "<guid>one-guid</guid>"), ("two", "/media/two%2Fc+d.mp3", ""),
    ]
    let body = items.map { title, path, guid in
      server.set(path, .data(FeedFixture.bytes(4_000, seed: UInt64(path.count))))
      return """
            <item><title>\(title)</title>\(guid)
              <pubDate>Thu, 02 May 2024 10:00:00 +0000</pubDate>
              <enclosure url="\(server.url(path))" length="4000" type="audio/mpeg"/></item>
        """
    }.joined(separator: "\n")
    server.set(
      "/encoded/feed.xml",
      .text(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>encoded show</title>
        \(body)
        </channel></rss>
        """, contentType: "application/rss+xml"))
    return server.url("/encoded/feed.xml")
  }

  func testAnActionStoredBeforeItsAnswerWasLostIsNotSentAgainUnderAnotherFormOfItsURL() throws {
    let feed = encodedShow()
    XCTAssertEqual(try podcast("subscribe", feed, "--first", "all").status, 0)
    gpodder.habits.normalisesURLs = true
    gpodder.habits.dropsGUIDs = true
    gpodder.habits.storesThenFails = 1

    let lost = try podcast("sync")

    XCTAssertEqual(lost.status, 1, lost.stdout)
    XCTAssertTrue(lost.stderr.contains("the database went away after storing"), lost.stderr)
    XCTAssertEqual(downloadActions().count, 2)
    XCTAssertEqual(try account()["pendingActions"] as? Int, 2, "not known to have arrived")

    let next = try podcast("sync")

    XCTAssertEqual(next.status, 0, next.stderr)
    XCTAssertEqual(
      downloadActions().map(\.episode).sorted(),
      [server.url("/media/one%252Fa%2Bb.mp3"), server.url("/media/two%252Fc%2Bd.mp3")],
      "each once, in the server's own form")
    XCTAssertEqual(try account()["pendingActions"] as? Int, 0)
  }

  func testAnUploadCutOffAfterStoringIsNotSentAgainByAServerWithAStrictSince() throws {
    let show = Show("strict", episodes: 3, on: server)
    XCTAssertEqual(try podcast("subscribe", show.feedURL, "--first", "all").status, 0)
    gpodder.habits.strictSince = true
    gpodder.habits.storesThenFails = 1
    gpodder.habits.dropsAfterStoring = true

    let cut = try podcast("sync")

    XCTAssertEqual(cut.status, 1, cut.stdout)
    XCTAssertEqual(cut.stderr.split(separator: "\n").count, 1, cut.stderr)
    XCTAssertEqual(downloadActions().count, 3)

    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(
      downloadActions().compactMap(\.guid).sorted(), ["strict-1", "strict-2", "strict-3"],
      "none sent twice")
  }

  // MARK: Plays without a time, changes in the pull's second (items 4 and 5)

  func testAPlayWithoutATimestampIsAppliedAndOneThatCannotBeIsNamed() throws {
    let show = Show("heard", episodes: 3, on: server)
    XCTAssertEqual(try podcast("subscribe", show.feedURL, "--first", "all").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    gpodder.habits.nullTimestamps = true
    gpodder.phonePlays(
      podcast: show.feedURL, episode: show.episode(3).url(on: server), position: 3_600,
      total: 3_600)
    gpodder.phonePlays(
      podcast: show.feedURL, episode: show.episode(2).url(on: server), position: nil, total: 3_600)

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    let listed = try XCTUnwrap(try podcast("episodes", "heard-show", "--json").listedEpisodes())
    let played = listed.filter { $0["played"] as? Bool == true }.compactMap {
      $0["title"] as? String
    }
    XCTAssertEqual(played, ["heard episode 3"])
    XCTAssertTrue(
      sync.stdout.contains("not applied  a play of \(show.episode(2).url(on: server))"),
      sync.stdout)
    XCTAssertTrue(sync.stdout.contains("1 not applied"), sync.stdout)
    let report = try XCTUnwrap(
      (try podcast("account", "sync", "--json").json() as? [String: Any])?["notApplied"]
        as? [String])
    XCTAssertEqual(report.count, 1, "\(report)")
  }

  func testAPhoneChangeInTheSameSecondAsThePullIsNotLost() throws {
    let shows = (1...8).map { Show("same\($0)", episodes: 1, on: server) }
    gpodder.habits.strictSince = true
    gpodder.clock = Int64(Date().timeIntervalSince1970)
    XCTAssertEqual(try podcast("sync").status, 0)

    // The phone subscribes in the second the library's pull was answered in.
    gpodder.phoneChanges(add: shows.map(\.feedURL))
    gpodder.phonePlays(
      podcast: shows[0].feedURL, episode: shows[0].episode(1).url(on: server), position: 60,
      total: 3_600)
    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertEqual(
      Set(try subscriptions().compactMap { $0["feedURL"] as? String }), Set(shows.map(\.feedURL)))
    XCTAssertEqual(try podcast("sync").status, 0)
    let listed = try podcast("episodes", "same1-show", "--json").listedEpisodes()
    XCTAssertEqual(listed.first?["position"] as? Int, 60, "the play of that second too")
  }

  // MARK: Deletions (item 8)

  /// A file removed by retention, by `--delete-played` and by hand each reaches the server
  /// as one `delete` action, from the outbox the downloads' actions go through.
  func testEachDeletedEpisodeIsToldToTheServerOnceHoweverItWent() throws {
    let show = Show("gone", episodes: 4, on: server)
    XCTAssertEqual(try podcast("subscribe", show.feedURL, "--first", "all").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(binary.episodeFiles().count, 4)
    func deleted() -> [String] {
      gpodder.actions.filter { $0.action == "delete" && $0.device == "podcast-box" }.map(\.episode)
    }

    // Retention: the oldest goes.
    XCTAssertEqual(try podcast("set", "gone-show", "--keep", "3").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    // By hand: the next oldest.
    let byHand = binary.episodesDirectory + "/gone show/2024-05-03 gone episode 2.mp3"
    XCTAssertNoThrow(try FileManager.default.removeItem(atPath: byHand))
    XCTAssertEqual(try podcast("sync").status, 0)
    // Played on the phone, with --delete-played 0.
    XCTAssertEqual(try podcast("set", "gone-show", "--delete-played", "0").status, 0)
    gpodder.phonePlays(
      podcast: show.feedURL, episode: show.episode(3).url(on: server), guid: "gone-3",
      position: 3_600, total: 3_600)
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try podcast("account", "sync").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)

    assertEpisodeFiles([show.episode(4)])
    XCTAssertEqual(
      deleted(), (1...3).map { show.episode($0).url(on: server) }, "each once, in that order")
    let sent = gpodder.actions.filter { $0.action == "delete" }
    XCTAssertEqual(sent.map(\.guid), ["gone-1", "gone-2", "gone-3"])
    XCTAssertEqual(Set(sent.map(\.podcast)), [show.feedURL])
    XCTAssertEqual(try account()["pendingActions"] as? Int, 0)
  }

  // MARK: The server's words, following a device (items 6 and 3)

  func testTheServersOwnWordsShowWhereverItPutsThem() throws {
    let show = Show("words", episodes: 1, on: server)
    XCTAssertEqual(try podcast("subscribe", show.feedURL).status, 0)
    gpodder.habits.errorsAsDetail = true
    gpodder.fail("subscriptions", status: 500, message: "database is locked")

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 1)
    XCTAssertEqual(sync.stderr.split(separator: "\n").count, 1, sync.stderr)
    XCTAssertTrue(sync.stderr.contains("HTTP 500"), sync.stderr)
    XCTAssertTrue(sync.stderr.hasSuffix(": database is locked\n"), sync.stderr)
    assertEpisodeFiles([show.episode(1)])
  }

  func testFollowingADeviceTheServerDoesNotHaveFailsNamingItAndListingTheAccountsDevices()
    throws
  {
    XCTAssertEqual(try podcast("account", "remove").status, 0)
    gpodder.registerDevice("tablet", caption: "Tab")

    let typo = try link("--follow", "phnoe")

    XCTAssertEqual(typo.status, 1, typo.stdout)
    XCTAssertEqual(typo.stderr.split(separator: "\n").count, 1, typo.stderr)
    XCTAssertTrue(typo.stderr.contains("no device phnoe"), typo.stderr)
    XCTAssertTrue(typo.stderr.contains("phone, tablet"), typo.stderr)
    XCTAssertTrue(try json("account", "--json") is NSNull, "nothing linked")

    let followed = try link("--follow", "phone")
    XCTAssertEqual(followed.status, 0, followed.stderr)
    XCTAssertTrue(followed.stdout.contains("shares one list of subscriptions with phone"))
    XCTAssertEqual(try account()["follows"] as? String, "phone")
    XCTAssertTrue(try podcast("account").stdout.contains("following phone"))

    let again = try link("--follow", "tablet")
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertTrue(
      again.stdout.contains("now shares one list of subscriptions with tablet (it followed phone"),
      again.stdout)
    XCTAssertEqual(try account()["follows"] as? String, "tablet")
    let kept = try link()
    XCTAssertEqual(kept.status, 0, kept.stderr)
    XCTAssertEqual(try account()["follows"] as? String, "tablet", "a relink without --follow")
  }
}
