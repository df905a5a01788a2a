import AccountServerTestSupport
import Foundation
import LoopbackServer
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// `kill -9` at random moments of the account exchange, in both API styles: at a request to
/// the sync server as it arrives or once the server has answered it (through a proxy that
/// kills the client then), or at a feed or episode request in between. The phone and this
/// library keep changing their subscriptions, the phone plays, feeds publish. Afterwards the
/// server and the library agree, no change is lost and none was applied twice.
///
/// `PODCAST_ACCOUNT_KILLS` sets the kills per style (default 20); `PODCAST_SOAK_SEED` repeats
/// a run's moments (the seed is printed).
final class AccountCrashTests: AccountTestCase {
  private enum Moment {
    /// At the sync server's `request`th request of the run.
    case exchange(request: Int, afterAnswer: Bool)
    /// At the feed server's `request`th request of the run.
    case feeds(request: Int)
  }

  func testAKillAtAnyMomentOfTheExchangeLosesNothingAndAppliesNothingTwice() throws {
    let kills = Int(ProcessInfo.processInfo.environment["PODCAST_ACCOUNT_KILLS"] ?? "") ?? 20
    var random = SeededGenerator(for: "AccountCrashTests")
    for api in ["gpodder", "nextcloud"] {
      let server = try startServer()
      let proxy = try AccountServerProxy(upstream: server.url, masking: OPodSync.password)
      defer { proxy.stop() }
      let phone = try AccountPhone(
        server: server.url, user: OPodSync.user, password: OPodSync.password)
      try freshLibrary()
      run(
        "account", "add", proxy.url, "--user", OPodSync.user, "--device", Self.device,
        "--api", api)
      do {
        try soak(api: api, kills: kills, proxy: proxy, phone: phone, random: &random)
      } catch {
        XCTFail("\(api): \(error)\nserver log:\n\(server.log)")
      }
      assertPasswordNowhere()
    }
  }

  private func soak(
    api: String, kills: Int, proxy: AccountServerProxy, phone: AccountPhone,
    random: inout SeededGenerator
  ) throws {
    // The phone changes its own shows, this library its own: each side's last word on a feed
    // is then the one that must hold.
    let phones = (1...4).map { Show("\(api)-phone\($0)", episodes: 2, on: server) }
    let locals = (1...4).map { Show("\(api)-here\($0)", episodes: 2, on: server) }
    var phoneFollows: Set<String> = []
    var hereFollows: Set<String> = []
    var heard: [(show: Show, title: String)] = []
    // Feeds unsubscribed at some point: their downloads' actions may have been dropped with
    // the subscription (actions go only for feeds followed, see AccountExchange).
    var left: Set<String> = []
    var killed = 0
    var round = 0
    while killed < kills && round < kills * 3 {
      round += 1
      let phoneShow = phones.randomElement(using: &random)!
      if phoneFollows.remove(phoneShow.feedURL) == nil {
        try phone.subscribe(phoneShow.feedURL)
        phoneFollows.insert(phoneShow.feedURL)
      } else {
        try phone.unsubscribe(phoneShow.feedURL)
        left.insert(phoneShow.feedURL)
      }
      let localShow = locals.randomElement(using: &random)!
      if hereFollows.remove(localShow.feedURL) == nil {
        run("subscribe", localShow.feedURL)
        hereFollows.insert(localShow.feedURL)
      } else {
        run("unsubscribe", "\(localShow.slug)-show")
        left.insert(localShow.feedURL)
      }
      (phones + locals).randomElement(using: &random)!.publish(1)
      if let played = phones.filter({ phoneFollows.contains($0.feedURL) })
        .randomElement(using: &random)
      {
        let episode = played.newest
        try phone.play(
          feed: played.feedURL, episode: episode.url(on: server), position: 600, total: 600)
        heard.append((played, episode.title))
      }

      let moment: Moment =
        Int.random(in: 0..<6, using: &random) == 0
        ? .feeds(request: Int.random(in: 1...4, using: &random))
        : .exchange(
          request: Int.random(in: 1...5, using: &random), afterAnswer: Bool.random(using: &random))
      if try syncKilled(at: moment, proxy: proxy) { killed += 1 }
    }
    XCTAssertEqual(killed, kills, "\(api): kills made in \(round) rounds")

    // Two whole runs: the first may still take the server's echo of what the last killed run
    // sent; after the second, nothing is left to exchange.
    run("sync")
    run("sync")
    let wanted = phoneFollows.union(hereFollows)
    XCTAssertEqual(subscribedFeeds(), wanted, "\(api): the library follows both sides' last word")
    XCTAssertEqual(
      Set(try phone.pullSubscriptions(since: 0).add), wanted,
      "\(api): the server has the same list")
    let summary = run("account", "--json")
    let account = try XCTUnwrap(try summary.json() as? [String: Any])
    XCTAssertEqual(account["pendingChanges"] as? Int, 0, api)
    XCTAssertEqual(account["pendingActions"] as? Int, 0, api)

    // Each download sent once, and only downloads; every download of a feed followed all along
    // sent.
    let statusRows = try XCTUnwrap(try run("status", "--json").json() as? [[String: Any]])
    let downloaded = Set(
      statusRows.filter { $0["state"] as? String == "done" }.compactMap { $0["url"] as? String })
    let sent = try phone.downloadActions(since: 0).filter {
      $0["device"] as? String == Self.device && $0["action"] as? String == "download"
    }.compactMap { $0["episode"] as? String }
    XCTAssertEqual(sent.count, Set(sent).count, "\(api): a download sent twice: \(sent.sorted())")
    XCTAssertTrue(
      Set(sent).isSubset(of: downloaded), "\(api): \(Set(sent).subtracting(downloaded))")
    let followedDownloads = Set(
      statusRows.filter { row in
        row["state"] as? String == "done"
          && (phones + locals).contains {
            wanted.contains($0.feedURL) && !left.contains($0.feedURL)
              && ($0.slug + " show") == row["podcast"] as? String
          }
      }.compactMap { $0["url"] as? String })
    XCTAssertEqual(
      followedDownloads.subtracting(sent), [], "\(api): downloads of followed feeds not sent")

    // Every play of a feed followed now is recorded.
    for (show, title) in heard where wanted.contains(show.feedURL) {
      let episode = listedEpisodes("\(show.slug)-show")[title]
      XCTAssertEqual(episode?["played"] as? Bool, true, "\(api): \(title) was played")
    }
  }

  /// One `sync` killed at `moment`; false when the run ended before it came (fewer requests
  /// than chosen).
  private func syncKilled(at moment: Moment, proxy: AccountServerProxy) throws -> Bool {
    let feedRequests = server.requests.count
    if case .exchange(let request, let afterAnswer) = moment {
      try proxy.plan(killAt: request, afterAnswer: afterAnswer)
    }
    let sync = try binary.start(["sync"])
    try proxy.started(pid: sync.pid)
    if case .feeds(let request) = moment {
      _ = server.wait(timeout: 120) {
        server.requests.count >= feedRequests + request || !sync.isRunning
      }
      if sync.isRunning { sync.signal(SIGKILL) }
    }
    let result = try sync.wait(timeout: 120)
    proxy.cancelPlan()
    record(["sync"], result)
    let wasKilled = sync.process.terminationReason == .uncaughtSignal
    if !wasKilled {
      XCTAssertEqual(result.status, 0, "an unkilled sync: \(result.stderr)")
    }
    return wasKilled
  }
}
