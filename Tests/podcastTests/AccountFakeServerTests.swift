import Foundation
import LoopbackServer
import XCTest

/// The account exchange through the binary against a loopback imitation of a gpodder.net-API
/// server, for what oPodSync never does: rewriting a URL (`update_urls`), answering badly.
/// Requests are read back from the imitation to see what was sent.
final class AccountFakeServerTests: LibraryTestCase {
  private let subscriptions = "/api/2/subscriptions/alice/podcast-box.json"
  private let episodes = "/api/2/episodes/alice.json"

  override func setUpWithError() throws {
    try super.setUpWithError()
    binary.environment["PODCAST_SYNC_PASSWORD"] = "s3cret-wonderland"
    server.set("/api/2/auth/alice/login.json", json("{}"))
    server.set("/api/2/devices/alice/podcast-box.json", json("{}"))
    server.set("/api/2/devices/alice.json", json("[]"))
    answerSubscriptions(updating: [])
    // One body for the pull and the upload: each reads the fields it knows.
    server.set(episodes, json(#"{"actions": [], "timestamp": 1000, "update_urls": []}"#))
    let linked = try podcast(
      "account", "add", server.baseURL, "--user", "alice", "--device", "podcast-box", "--api",
      "gpodder")
    XCTAssertEqual(linked.status, 0, linked.stderr)
  }

  private func json(_ text: String) -> Route {
    Route.text(text, contentType: "application/json")
  }

  /// The subscription endpoint: nothing new to pull, and `rewrites` in a push's answer.
  private func answerSubscriptions(updating rewrites: [(String, String)]) {
    let pairs = rewrites.map { #"["\#($0.0)", "\#($0.1)"]"# }.joined(separator: ", ")
    server.set(
      subscriptions,
      json(#"{"add": [], "remove": [], "timestamp": 1000, "update_urls": [\#(pairs)]}"#))
  }

  /// The `add` and `remove` lists of every push, in order.
  private func pushes() throws -> [(add: [String], remove: [String])] {
    try server.requests(for: subscriptions).filter { $0.method == "POST" }.map { request in
      let body = try XCTUnwrap(
        try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
      return (body["add"] as? [String] ?? [], body["remove"] as? [String] ?? [])
    }
  }

  func testAURLTheServerRewritesIsFollowedAsOneSubscription() throws {
    let show = Show("moved", episodes: 2, on: server)
    let rewritten = server.url("/moved/canonical.xml")
    server.set(
      "/moved/canonical.xml",
      .text(FeedFixture.rss(title: "moved show", episodes: show.episodes, base: server.baseURL)))
    XCTAssertEqual(try podcast("subscribe", show.feedURL).status, 0)
    answerSubscriptions(updating: [(show.feedURL, rewritten)])

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 0, sync.stderr)
    XCTAssertEqual(try pushes().map(\.add), [[show.feedURL]])
    let listed = try subscriptions()
    XCTAssertEqual(listed.count, 1, "\(listed)")
    XCTAssertEqual(listed.first?["feedURL"] as? String, rewritten)

    // The server's echo under the new URL is the same subscription, and the move is its own.
    server.set(
      subscriptions,
      json(#"{"add": ["\#(rewritten)"], "remove": [], "timestamp": 1001, "update_urls": []}"#))
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
    let sentActions = try server.requests(for: episodes).filter { $0.method == "POST" }
      .flatMap {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: $0.body) as? [[String: Any]])
      }
    XCTAssertEqual(
      sentActions.compactMap { $0["podcast"] as? String }, [open.feedURL],
      "no action of the private feed: an action subscribes the server to its feed")

    XCTAssertEqual(try podcast("set", "members", "--share-with-account").status, 0)
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try pushes().last?.add, [secret], "shared: sent as it is")
  }

  func testAnUnreadableAnswerIsOneLineAndTheFeedsStillSync() throws {
    let show = Show("steady", episodes: 1, on: server)
    XCTAssertEqual(try podcast("subscribe", show.feedURL).status, 0)
    server.set(subscriptions, .html("<html>maintenance</html>"))

    let sync = try podcast("sync")

    XCTAssertEqual(sync.status, 1)
    XCTAssertEqual(sync.stderr.split(separator: "\n").count, 1, sync.stderr)
    XCTAssertTrue(sync.stderr.contains("sync server \(server.baseURL)"), sync.stderr)
    XCTAssertTrue(sync.stderr.contains("an HTML page instead of JSON"), sync.stderr)
    assertEpisodeFiles([show.episode(1)])
    let account = try XCTUnwrap(try json("account", "--json") as? [String: Any])
    XCTAssertEqual(account["pendingChanges"] as? Int, 1, "the change waits for the next exchange")
    XCTAssertNotNil(account["lastError"] as? String)
    XCTAssertFalse(sync.stderr.contains("s3cret-wonderland"))

    answerSubscriptions(updating: [])
    XCTAssertEqual(try podcast("sync").status, 0)
    XCTAssertEqual(try pushes().map(\.add), [[show.feedURL]])
    let after = try XCTUnwrap(try json("account", "--json") as? [String: Any])
    XCTAssertTrue(after["lastError"] is NSNull)
  }

  func testWithNoAccountFlagTheServerIsNotAskedAndTheDownloadsWait() throws {
    let show = Show("later", episodes: 1, on: server)
    XCTAssertEqual(try podcast("subscribe", show.feedURL).status, 0)
    let before = server.requests.filter { $0.path.hasPrefix("/api/") }.count

    XCTAssertEqual(try podcast("sync", "--no-account").status, 0)

    XCTAssertEqual(server.requests.filter { $0.path.hasPrefix("/api/") }.count, before)
    assertEpisodeFiles([show.episode(1)])
    let account = try XCTUnwrap(try json("account", "--json") as? [String: Any])
    XCTAssertEqual(account["pendingActions"] as? Int, 1)
    XCTAssertEqual(try podcast("account", "sync").status, 0)
    let sent = try server.requests(for: episodes).filter { $0.method == "POST" }
    XCTAssertEqual(sent.count, 1)
  }
}
