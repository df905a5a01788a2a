import AccountServerTestSupport
import Foundation
import LoopbackServer
import XCTest

/// `podcast account` and the exchange `podcast sync` makes with it, through the binary against
/// the real oPodSync on loopback, in both API styles, with gPodder's mygpoclient as the phone.
final class AccountCommandTests: AccountTestCase {
  func testThePhonesSubscriptionsArriveByTheFirstPolicyAndLeaveKeepingTheirFiles() throws {
    let shows = [Show("alpha", episodes: 3, on: server), Show("beta", episodes: 3, on: server)]
    try inEachStyle { api, _, phone in
      try phone.subscribe(shows[0].feedURL, shows[1].feedURL)

      let first = run("sync")

      XCTAssertEqual(subscribedFeeds(), Set(shows.map(\.feedURL)), api)
      XCTAssertTrue(first.stdout.contains("subscribed  alpha-show"), "\(api): \(first.stdout)")
      // The first-sync policy (latest): one episode each, not the back catalogue.
      XCTAssertEqual(
        binary.episodeFiles(),
        ["alpha show/2024-05-04 alpha episode 3.mp3", "beta show/2024-05-04 beta episode 3.mp3"],
        api)

      try phone.unsubscribe(shows[0].feedURL)
      let second = run("sync")

      XCTAssertEqual(subscribedFeeds(), [shows[1].feedURL], api)
      XCTAssertTrue(second.stdout.contains("unsubscribed alpha-show"), "\(api): \(second.stdout)")
      XCTAssertEqual(binary.episodeFiles().count, 2, "\(api): the files stay")
      run("sync")
      XCTAssertEqual(subscribedFeeds(), [shows[1].feedURL], "\(api): no echo comes back")
    }
  }

  func testOneFeedFromBothSidesIsOneSubscription() throws {
    let show = Show("twice", episodes: 1, on: server)
    // Another form of the URL, and an old address that redirects to it for good.
    server.set("/old/twice.xml", .redirect(to: show.feedURL, status: 301))
    try inEachStyle { api, _, phone in
      run("subscribe", show.feedURL)
      try phone.subscribe(show.feedURL + "/", server.url("/old/twice.xml"))

      let sync = run("sync")

      XCTAssertEqual(subscribedFeeds(), [show.feedURL], "\(api): \(sync.stdout)")
      XCTAssertFalse(sync.stdout.contains("subscribed  "), "\(api): \(sync.stdout)")
      run("sync")
      XCTAssertEqual(subscribedFeeds(), [show.feedURL], api)
    }
  }

  func testChangesHereReachThePhoneAndThoseMadeWhileTheServerIsDownGoWhenItIsBack() throws {
    let here = Show("here", episodes: 2, on: server)
    let later = Show("later", episodes: 2, on: server)
    try inEachStyle { api, server, phone in
      run("subscribe", here.feedURL)
      run("sync")
      let added = try phone.pullSubscriptions(since: 0)
      XCTAssertEqual(added.add, [here.feedURL], api)

      run("unsubscribe", "here-show")
      run("sync")
      let removed = try phone.pullSubscriptions(since: added.timestamp)
      XCTAssertEqual(removed.remove, [here.feedURL], api)
      XCTAssertEqual(removed.add, [], api)

      try server.pause()
      run("subscribe", later.feedURL)
      let down = run("sync", status: 1)
      let lines = down.stderr.split(separator: "\n")
      XCTAssertEqual(lines.count, 1, "\(api): \(down.stderr)")
      XCTAssertTrue(lines.first?.contains("sync server \(server.url)") == true, down.stderr)
      XCTAssertTrue(
        binary.episodeFiles().contains("later show/2024-05-03 later episode 2.mp3"),
        "\(api): the feeds synced all the same: \(binary.episodeFiles())")
      XCTAssertTrue(run("account").stdout.contains("1 change to send"), api)

      try server.resume()
      run("sync")
      let caughtUp = try phone.pullSubscriptions(since: removed.timestamp)
      XCTAssertEqual(caughtUp.add, [later.feedURL], api)
      let actions = try phone.downloadActions(since: 0).filter {
        $0["device"] as? String == Self.device
      }
      XCTAssertTrue(
        actions.contains { $0["episode"] as? String == later.episode(2).url(on: self.server) },
        "\(api): the download made while the server was down was sent: \(actions)")
    }
  }

  func testEachDownloadReachesThePhoneAsADownloadActionWithItsExactURLAndGUID() throws {
    let show = Show("trio", episodes: 3, on: server)
    try inEachStyle { api, _, phone in
      run("subscribe", show.feedURL, "--first", "all")

      run("sync")

      // As the phone's library reads them, then with every field the server keeps.
      let read = try phone.episodeActions(since: 0)
      XCTAssertEqual(
        read.compactMap { $0["action"] as? String }, Array(repeating: "download", count: 3), api)
      XCTAssertEqual(
        Set(read.compactMap { $0["episode"] as? String }),
        Set((1...3).map { show.episode($0).url(on: server) }), api)
      let actions = try phone.downloadActions(since: 0)
      XCTAssertEqual(actions.count, 3, "\(api): \(actions)")
      XCTAssertEqual(
        Set(actions.compactMap { $0["episode"] as? String }),
        Set((1...3).map { show.episode($0).url(on: server) }), api)
      XCTAssertEqual(
        Set(actions.compactMap { $0["guid"] as? String }), ["trio-1", "trio-2", "trio-3"], api)
      for action in actions {
        XCTAssertEqual(action["action"] as? String, "download", api)
        XCTAssertEqual(action["podcast"] as? String, show.feedURL, api)
        XCTAssertEqual(action["device"] as? String, Self.device, api)
      }
      run("sync")
      XCTAssertEqual(try phone.downloadActions(since: 0).count, 3, "\(api): none sent twice")
    }
  }

  func testThePhonesPlaysAreListedAndPlayedEpisodesGoByDeletePlayed() throws {
    let show = Show("heard", episodes: 3, on: server)
    try inEachStyle { api, _, phone in
      run("subscribe", show.feedURL, "--first", "all", "--delete-played", "0")
      run("sync")
      XCTAssertEqual(binary.episodeFiles().count, 3, api)
      try phone.play(
        feed: show.feedURL, episode: show.episode(3).url(on: server), position: 3_600,
        total: 3_600)
      try phone.play(
        feed: show.feedURL, episode: show.episode(2).url(on: server), position: 60, total: 3_600)
      let fetched = requestCount(show.episode(3))

      run("sync")

      let listed = listedEpisodes("heard-show")
      let done = try XCTUnwrap(listed["heard episode 3"], api)
      let begun = try XCTUnwrap(listed["heard episode 2"], api)
      XCTAssertEqual(done["played"] as? Bool, true, api)
      XCTAssertEqual(done["state"] as? String, "deleted", api)
      XCTAssertTrue(done["file"] is NSNull, api)
      XCTAssertEqual(begun["played"] as? Bool, false, api)
      XCTAssertEqual(begun["position"] as? Int, 60, api)
      XCTAssertEqual(begun["state"] as? String, "downloaded", api)
      XCTAssertTrue(listed["heard episode 1"]?["position"] is NSNull, api)
      XCTAssertEqual(
        binary.episodeFiles(),
        ["heard show/2024-05-02 heard episode 1.mp3", "heard show/2024-05-03 heard episode 2.mp3"],
        api)
      let table = run("episodes", "heard-show").stdout
      XCTAssertTrue(table.contains("PLAYED"), table)

      run("sync")
      XCTAssertEqual(requestCount(show.episode(3)), fetched, "\(api): never fetched again")
      XCTAssertEqual(
        listedEpisodes("heard-show")["heard episode 3"]?["state"] as? String, "deleted")
    }
  }

  func testAnEpisodeMarkedPlayedHereReachesThePhoneAsAPlayToItsEnd() throws {
    let show = Show("marked", episodes: 2, on: server)
    try inEachStyle { api, _, phone in
      run("subscribe", show.feedURL)
      run("mark", "marked-show", "2", "--played")
      XCTAssertEqual(listedEpisodes("marked-show")["marked episode 1"]?["played"] as? Bool, true)

      run("sync")

      let plays = try phone.downloadActions(since: 0).filter { $0["action"] as? String == "play" }
      XCTAssertEqual(plays.count, 1, "\(api): \(plays)")
      // The fixture's feed says 12:34 for every episode.
      XCTAssertEqual(plays.first?["position"] as? Int, 754, api)
      XCTAssertEqual(plays.first?["total"] as? Int, 754, api)
      XCTAssertEqual(plays.first?["episode"] as? String, show.episode(1).url(on: server), api)

      run("mark", "marked-show", "2", "--unplayed")
      run("sync")
      XCTAssertEqual(listedEpisodes("marked-show")["marked episode 1"]?["played"] as? Bool, false)
      XCTAssertTrue(
        try phone.downloadActions(since: 0).contains { $0["action"] as? String == "new" }, api)
    }
  }

  func testAServerStoppedDuringTheSyncFailsOneLineAndTheNextSyncCatchesUp() throws {
    let show = Show("stalled", episodes: 2, on: server)
    show.enclosure = { $0.stalling(after: 1_000, seconds: nil, times: 1) }
    show.serve()
    try inEachStyle { api, server, phone in
      run("subscribe", show.feedURL, "--first", "all")
      let path = show.episode(2).path
      let before = self.server.requests(for: path).count
      let sync = try binary.start(["sync"])
      XCTAssertTrue(
        self.server.wait(timeout: 60) { self.server.requests(for: path).count > before },
        "\(api): the download began")
      try server.pause()
      self.server.releaseStalls()
      let result = try sync.wait(timeout: 120)
      record(["sync"], result)

      XCTAssertEqual(result.status, 1, "\(api): \(result.stderr)")
      let lines = result.stderr.split(separator: "\n")
      XCTAssertEqual(lines.count, 1, "\(api): \(result.stderr)")
      XCTAssertTrue(lines.first?.contains("sync server \(server.url)") == true, result.stderr)
      XCTAssertEqual(binary.episodeFiles().count, 2, "\(api): every feed synced")

      try server.resume()
      run("sync")
      let actions = try phone.downloadActions(since: 0).filter {
        $0["action"] as? String == "download"
      }
      XCTAssertEqual(actions.count, 2, "\(api): \(actions)")
      show.enclosure = { $0.stalling(after: 1_000, seconds: nil, times: 1) }
      show.serve()
    }
  }

  func testAWrongPasswordAtAddIsOneLineAndStoresNothing() throws {
    let server = try startServer()
    let refused = run(
      ["account", "add", server.url, "--user", OPodSync.user], status: 1,
      environment: ["PODCAST_SYNC_PASSWORD": "not-wonderland"])
    XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
    XCTAssertTrue(refused.stderr.contains("refused the login of alice"), refused.stderr)
    XCTAssertFalse(refused.stderr.contains("not-wonderland"), refused.stderr)
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: binary.library + "/.podcast"), "no library made")

    run("subscribe", Show("kept", episodes: 1, on: self.server).feedURL)
    run(
      ["account", "add", server.url, "--user", OPodSync.user], status: 1,
      environment: ["PODCAST_SYNC_PASSWORD": "not-wonderland"])
    XCTAssertEqual(run("account", "--json").stdout, "null\n")
    assertPasswordNowhere()
  }

  func testTheAccountShowsWhoAndWhenAndTheAPIIsFoundOut() throws {
    let server = try startServer()
    let netrcHome = binary.library + "-home"
    try FileManager.default.createDirectory(atPath: netrcHome, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: netrcHome) }
    try "machine 127.0.0.1\n  login alice\n  password \(OPodSync.password)\n".write(
      toFile: netrcHome + "/.netrc", atomically: true, encoding: .utf8)

    // The password from ~/.netrc, the API found out by asking.
    var withoutPassword = binary.environment
    withoutPassword["PODCAST_SYNC_PASSWORD"] = nil
    withoutPassword["HOME"] = netrcHome
    var binary = binary!
    binary.environment = withoutPassword
    let added = try binary.run(["account", "add", server.url, "--user", "alice", "--device", "box"])
    record(["account", "add"], added)
    XCTAssertEqual(added.status, 0, added.stderr)
    XCTAssertTrue(added.stdout.contains("the gpodder.net API, found out"), added.stdout)

    let shown = try XCTUnwrap(try run("account", "--json").json() as? [String: Any])
    XCTAssertEqual(shown["server"] as? String, server.url)
    XCTAssertEqual(shown["user"] as? String, "alice")
    XCTAssertEqual(shown["device"] as? String, "box")
    XCTAssertEqual(shown["api"] as? String, "gpodder")
    XCTAssertNil(shown["password"])
    XCTAssertTrue(shown["subscriptionsExchanged"] is NSNull)
    run("account", "sync")
    let after = try XCTUnwrap(try run("account", "--json").json() as? [String: Any])
    XCTAssertNotNil(after["subscriptionsExchanged"] as? String)
    XCTAssertNotNil(after["actionsExchanged"] as? String)
    XCTAssertTrue(run("account").stdout.contains("user             alice"))

    run("account", "add", server.url, "--user", "bob", status: 1)
    XCTAssertTrue(
      run("account", "add", server.url, "--user", "alice").stdout.contains("Replaced the password"),
      "the same account again: a new password")
    XCTAssertEqual(
      try XCTUnwrap(try run("account", "--json").json() as? [String: Any])["device"] as? String,
      "box")
    XCTAssertTrue(run("account", "remove").stdout.contains("Unlinked"))
    XCTAssertEqual(run("account", "--json").stdout, "null\n")
    run("account", "remove", status: 1)
    assertPasswordNowhere()
  }

  func testADryRunSaysWhatTheExchangeWouldDoAndDoesNothing() throws {
    let phones = Show("phoned", episodes: 2, on: server)
    let here = Show("local", episodes: 2, on: server)
    try inEachStyle { api, _, phone in
      try phone.subscribe(phones.feedURL)
      run("subscribe", here.feedURL)
      try phone.play(
        feed: phones.feedURL, episode: phones.episode(2).url(on: server), position: 10,
        total: 100)

      let preview = run("sync", "--dry-run").stdout

      XCTAssertTrue(preview.contains("would subscribe    \(phones.feedURL)"), "\(api): \(preview)")
      XCTAssertTrue(preview.contains("would send         + \(here.feedURL)"), "\(api): \(preview)")
      XCTAssertEqual(subscribedFeeds(), [here.feedURL], api)
      XCTAssertEqual(try phone.pullSubscriptions(since: 0).add, [phones.feedURL], api)
      let document = try XCTUnwrap(try run("sync", "--dry-run", "--json").json() as? [String: Any])
      let account = try XCTUnwrap(document["account"] as? [String: Any], api)
      XCTAssertEqual(account["subscribed"] as? [String], [phones.feedURL], api)
    }
  }
}

extension FakeEpisode {
  /// The enclosure URL as the feed gives it.
  func url(on server: LoopbackServer) -> String { server.url(path) }
}
