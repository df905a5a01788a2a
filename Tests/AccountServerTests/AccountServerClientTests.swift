import AccountServer
import Foundation
import LoopbackServer
import Transfer
import XCTest

/// The account server's client against a loopback imitation of both APIs' endpoints: the requests
/// it makes, the answers it reads, and one clear error for each way a server fails.
final class AccountServerClientTests: XCTestCase {
  private var server: LoopbackServer!
  private let password = "s3cret-wonderland"

  override func setUpWithError() throws {
    server = try LoopbackServer()
  }

  override func tearDownWithError() throws {
    server.stop()
  }

  private var account: AccountLogin {
    AccountLogin(
      server: server.baseURL + "/", user: "alice", password: password, device: "podcast-box")
  }

  private func client(_ api: AccountAPI, stallTimeout: Int = 30) -> AccountServerClient {
    AccountServerClient(
      account: account, api: api,
      http: HTTPClient(options: TransferOptions(connectTimeout: 5, stallTimeout: stallTimeout)))
  }

  private func json(_ text: String, status: Int = 200) -> Route {
    Route.text(text, contentType: "application/json").withStatus(status)
  }

  /// The error `body` throws.
  private func syncError(_ body: () async throws -> Void) async -> AccountServerError? {
    do {
      try await body()
      XCTFail("no error")
      return nil
    } catch let error as AccountServerError {
      XCTAssertFalse(error.description.contains(password), "password in: \(error)")
      return error
    } catch {
      XCTFail("not a AccountServerError: \(error)")
      return nil
    }
  }

  private func sentJSON(_ path: String) throws -> Any {
    let sent = try XCTUnwrap(server.requests(for: path).last, "nothing sent to \(path)")
    return try JSONSerialization.jsonObject(with: sent.body)
  }

  private let basic = "Basic " + Data("alice:s3cret-wonderland".utf8).base64EncodedString()

  // MARK: Login

  func testTheGpodderLoginPostsWithBasicAuthAndKeepsTheSessionCookie() async throws {
    server.set(
      "/api/2/auth/alice/login.json",
      json(#"{"code": 200, "message": "Logged in!"}"#)
        .withHeader("Set-Cookie", "sessionid=o47edig; path=/; HttpOnly"))
    server.set("/api/2/devices/alice.json", json("[]"))
    let client = client(.gpodder)

    try await client.logIn()
    _ = try await client.devices()

    let login = try XCTUnwrap(server.requests(for: "/api/2/auth/alice/login.json").last)
    XCTAssertEqual(login.method, "POST")
    XCTAssertEqual(login.header("Authorization"), basic)
    let next = try XCTUnwrap(server.requests(for: "/api/2/devices/alice.json").last)
    XCTAssertEqual(next.header("Cookie"), "sessionid=o47edig")
    XCTAssertEqual(
      next.header("Authorization"), basic, "the login goes along: a session may expire")
  }

  func testAWrongPasswordIsOneSentenceNamingTheServerAndUser() async throws {
    server.set(
      "/api/2/auth/alice/login.json",
      json(#"{"code": 401, "message": "Invalid username/password"}"#, status: 401))

    let error = await syncError { try await client(.gpodder).logIn() }

    XCTAssertEqual(error, .loginRefused(server: server.baseURL, user: "alice", status: 401))
    XCTAssertEqual(
      error?.description,
      "sync server \(server.baseURL) refused the login of alice (HTTP 401): check the user name and password"
    )
  }

  func testForbiddenIsARefusedLoginToo() async throws {
    server.set("/index.php/apps/gpoddersync/subscriptions", .status(403))

    let error = await syncError { try await client(.nextcloud).logIn() }

    XCTAssertEqual(error, .loginRefused(server: server.baseURL, user: "alice", status: 403))
  }

  /// Nextcloud has no login call: a subscription pull from now must come back readable.
  func testTheNextcloudLoginIsAReadablePullWithBasicAuth() async throws {
    server.set(
      "/index.php/apps/gpoddersync/subscriptions",
      json(#"{"add": [], "remove": [], "timestamp": 1795776235}"#))

    try await client(.nextcloud).logIn()

    let sent = try XCTUnwrap(server.requests(for: "/index.php/apps/gpoddersync/subscriptions").last)
    XCTAssertEqual(sent.method, "GET")
    XCTAssertEqual(sent.header("Authorization"), basic)
    let since = try XCTUnwrap(sent.query.flatMap { Int64($0.dropFirst("since=".count)) })
    XCTAssertEqual(Double(since), Date().timeIntervalSince1970, accuracy: 600)
  }

  // MARK: Detecting the API

  func testAServerWithTheGpodderEndpointsIsTakenAsGpodder() async throws {
    server.set("/api/2/auth/alice/login.json", json(#"{"code": 200}"#))
    server.set("/api/2/devices/alice.json", json("[]"))

    let api = try await AccountServerClient.detectAPI(for: account, http: HTTPClient())

    XCTAssertEqual(api, .gpodder)
  }

  func testAServerWithOnlyNextcloudsEndpointsIsTakenAsNextcloud() async throws {
    server.set(
      "/index.php/apps/gpoddersync/subscriptions",
      json(#"{"add": [], "remove": [], "timestamp": 5}"#))

    let api = try await AccountServerClient.detectAPI(for: account, http: HTTPClient())

    XCTAssertEqual(api, .nextcloud)
    XCTAssertEqual(server.requests(for: "/api/2/auth/alice/login.json").count, 1, "asked first")
  }

  /// A web site that answers every path with a page of its own is neither.
  func testAWebPageAnsweringEverythingIsNotAnAccountServer() async throws {
    server.set("/api/2/auth/alice/login.json", .html("<html>Welcome</html>"))
    server.set("/api/2/devices/alice.json", .html("<html>Welcome</html>"))
    server.set("/index.php/apps/gpoddersync/subscriptions", .html("<html>Welcome</html>"))

    let error = await syncError { _ = try await AccountServerClient.detectAPI(for: self.account) }

    XCTAssertEqual(error, .notAnAccountServer(server: server.baseURL))
  }

  func testARefusedLoginStopsTheDetection() async throws {
    server.set("/api/2/auth/alice/login.json", .status(401))

    let error = await syncError { _ = try await AccountServerClient.detectAPI(for: self.account) }

    XCTAssertEqual(error, .loginRefused(server: server.baseURL, user: "alice", status: 401))
    XCTAssertTrue(server.requests(for: "/index.php/apps/gpoddersync/subscriptions").isEmpty)
  }

  // MARK: Devices

  func testDevicesAreListedAndThisOneRegisteredAsAServer() async throws {
    server.set(
      "/api/2/devices/alice.json",
      json(
        #"[{"id": "phone", "caption": "Pixel", "type": "mobile", "subscriptions": "12"},"#
          + #" {"caption": "no id"}, {"id": "box", "user": 1}]"#))
    server.set("/api/2/devices/alice/podcast-box.json", json(#"{"code": 200}"#))
    let client = client(.gpodder)

    let devices = try await client.devices()
    try await client.registerDevice(caption: "podcast on box")

    XCTAssertEqual(
      devices,
      [
        AccountDevice(id: "phone", caption: "Pixel", type: "mobile", subscriptions: 12),
        AccountDevice(id: "box", caption: "", type: "other", subscriptions: 0),
      ])
    let body = try XCTUnwrap(
      try sentJSON("/api/2/devices/alice/podcast-box.json") as? [String: String])
    XCTAssertEqual(body, ["caption": "podcast on box", "type": "server"])
  }

  func testNextcloudHasNoDevicesAndIsNotAsked() async throws {
    let client = client(.nextcloud)

    let error = await syncError { _ = try await client.devices() }
    let registration = await syncError { try await client.registerDevice(caption: "x") }

    XCTAssertEqual(
      error?.description,
      "sync server \(server.baseURL) does not offer the device list (Nextcloud gPodder Sync has no devices)"
    )
    if case .notSupported = registration {} else { XCTFail("\(String(describing: registration))") }
    XCTAssertTrue(server.requests.isEmpty)
  }

  func testFollowingAPhonePutsBothInOneSyncGroup() async throws {
    server.set(
      "/api/2/sync-devices/alice.json",
      json(#"{"synchronized": [["podcast-box", "phone"]], "not-synchronized": ["tablet"]}"#))

    let groups = try await client(.gpodder).follow("phone")

    XCTAssertEqual(groups.group(of: "phone"), ["podcast-box", "phone"])
    XCTAssertEqual(groups.notSynchronized, ["tablet"])
    let body = try XCTUnwrap(try sentJSON("/api/2/sync-devices/alice.json") as? [String: [Any]])
    XCTAssertEqual(body["synchronize"] as? [[String]], [["podcast-box", "phone"]])
    XCTAssertEqual(body["stop-synchronize"] as? [String], [])
  }

  /// gpodder.net answers 404 for a device the account does not have: that is no "no sync
  /// groups", and the error names the device and the account's others.
  func testFollowingADeviceTheAccountDoesNotHaveNamesItAndTheOthers() async throws {
    server.set(
      "/api/2/sync-devices/alice.json", json(#"{"detail": "Device not found"}"#, status: 404))
    server.set(
      "/api/2/devices/alice.json",
      json(
        #"[{"id": "podcast-box", "caption": "", "type": "server"}, {"id": "phone", "caption": "Pixel"}, {"id": "tablet"}]"#
      ))

    let error = await syncError { _ = try await self.client(.gpodder).follow("phnoe") }

    XCTAssertEqual(
      error,
      .unknownDevice(server: server.baseURL, device: "phnoe", known: ["phone", "tablet"]))
    XCTAssertEqual(
      error?.description,
      "sync server \(server.baseURL) has no device phnoe for this account: its devices are phone,"
        + " tablet")
  }

  /// A 404 where the device is known: the server has no sync-devices call, so no groups.
  func testA404ForAKnownDeviceMeansTheServerHasNoGroups() async throws {
    server.set("/api/2/sync-devices/alice.json", .status(404))
    server.set("/api/2/devices/alice.json", json(#"[{"id": "phone"}]"#))

    let error = await syncError { _ = try await self.client(.gpodder).follow("phone") }

    guard case .notSupported = error else { return XCTFail("\(String(describing: error))") }
  }

  /// oPodSync routes sync-devices and answers 200 with nothing: it has no groups.
  func testAnEmptySyncGroupAnswerMeansTheServerHasNone() async throws {
    server.set("/api/2/sync-devices/alice.json", json(""))

    let error = await syncError { _ = try await self.client(.gpodder).deviceGroups() }

    XCTAssertEqual(
      error,
      .notSupported(server: server.baseURL, call: "device sync groups", detail: "an empty answer"))
  }

  // MARK: Subscriptions

  func testSubscriptionChangesArePulledSinceATimestamp() async throws {
    server.set(
      "/api/2/subscriptions/alice/podcast-box.json",
      json(
        #"{"add": ["https://a.example/feed.xml"], "remove": ["https://b.example/rss"],"#
          + #" "update_urls": [["http://c.example/x?utm=1", "http://c.example/x"], ["bad", ""]],"#
          + #" "timestamp": 1795776236}"#))

    let changes = try await client(.gpodder).subscriptionChanges(since: 1_795_770_000)

    XCTAssertEqual(
      changes,
      SubscriptionChanges(
        add: ["https://a.example/feed.xml"], remove: ["https://b.example/rss"],
        updateURLs: [
          URLRewrite(old: "http://c.example/x?utm=1", new: "http://c.example/x"),
          URLRewrite(old: "bad", new: nil),
        ],
        timestamp: 1_795_776_236))
    let sent = try XCTUnwrap(server.requests.last)
    XCTAssertEqual(sent.target, "/api/2/subscriptions/alice/podcast-box.json?since=1795770000")
  }

  func testChangesArePushedAndTheRewrittenURLsRead() async throws {
    server.set(
      "/api/2/subscriptions/alice/podcast-box.json",
      json(
        #"{"timestamp": 1795776300, "update_urls": [["https://a.example/f?ref=x", "https://a.example/f"]]}"#
      ))

    let receipt = try await client(.gpodder).pushSubscriptionChanges(
      add: ["https://a.example/f?ref=x"], remove: ["https://gone.example/feed"])

    XCTAssertEqual(
      receipt,
      ServerReceipt(
        timestamp: 1_795_776_300,
        updateURLs: [URLRewrite(old: "https://a.example/f?ref=x", new: "https://a.example/f")]))
    let sent = try XCTUnwrap(server.requests.last)
    XCTAssertEqual(sent.method, "POST")
    XCTAssertEqual(sent.header("Content-Type"), "application/json")
    let body = try XCTUnwrap(
      try sentJSON("/api/2/subscriptions/alice/podcast-box.json") as? [String: [String]])
    XCTAssertEqual(
      body, ["add": ["https://a.example/f?ref=x"], "remove": ["https://gone.example/feed"]])
  }

  func testNextcloudSubscriptionsUseItsOwnPaths() async throws {
    server.set(
      "/index.php/apps/gpoddersync/subscriptions",
      json(#"{"add": ["https://a.example/f"], "remove": [], "timestamp": "77"}"#))
    server.set("/index.php/apps/gpoddersync/subscription_change/create", json(""))
    let client = client(.nextcloud)

    let changes = try await client.subscriptionChanges(since: 0)
    let receipt = try await client.pushSubscriptionChanges(add: [], remove: ["https://a.example/f"])

    XCTAssertEqual(
      changes, SubscriptionChanges(add: ["https://a.example/f"], remove: [], timestamp: 77))
    XCTAssertEqual(receipt, ServerReceipt(timestamp: nil), "an empty answer to a push is taken")
    XCTAssertEqual(
      server.requests.map(\.target),
      [
        "/index.php/apps/gpoddersync/subscriptions?since=0",
        "/index.php/apps/gpoddersync/subscription_change/create",
      ])
  }

  /// A user name is one path segment: `/` and `@` cannot change which endpoint is asked.
  func testTheUserNameIsEscapedInPaths() async throws {
    let odd = AccountLogin(
      server: server.baseURL, user: "a/b@c d", password: password, device: "box")
    server.set(
      "/api/2/subscriptions/a%2Fb%40c%20d/box.json",
      json(#"{"add": [], "remove": [], "timestamp": 1}"#))

    _ = try await AccountServerClient(account: odd, api: .gpodder).subscriptionChanges(since: 0)

    XCTAssertEqual(server.requests.last?.path, "/api/2/subscriptions/a%2Fb%40c%20d/box.json")
  }

  // MARK: Episode actions

  func testActionsAreUploadedAsTheServersTakeThem() async throws {
    server.set("/api/2/episodes/alice.json", json(#"{"timestamp": 1795776345, "update_urls": []}"#))
    let time = Date(timeIntervalSince1970: 1_795_773_600)  // 2026-11-27T10:00:00Z

    let receipt = try await client(.gpodder).uploadEpisodeActions([
      .download(
        podcast: "https://a.example/feed.xml", episode: "https://cdn.example/ep1.mp3?x=1&y=2",
        guid: "guid-1", at: time),
      .play(
        podcast: "https://a.example/feed.xml", episode: "https://cdn.example/ep2.mp3", guid: nil,
        position: 3_600, total: 3_600, at: time),
    ])

    XCTAssertEqual(receipt.timestamp, 1_795_776_345)
    let body = try XCTUnwrap(try sentJSON("/api/2/episodes/alice.json") as? [[String: Any]])
    XCTAssertEqual(body.count, 2)
    XCTAssertEqual(
      body[0] as NSDictionary,
      [
        "podcast": "https://a.example/feed.xml", "episode": "https://cdn.example/ep1.mp3?x=1&y=2",
        "guid": "guid-1", "action": "download", "timestamp": "2026-11-27T10:00:00",
      ] as NSDictionary)
    XCTAssertEqual(
      body[1] as NSDictionary,
      [
        "podcast": "https://a.example/feed.xml", "episode": "https://cdn.example/ep2.mp3",
        "action": "play", "timestamp": "2026-11-27T10:00:00", "started": 0, "position": 3_600,
        "total": 3_600,
      ] as NSDictionary)
  }

  /// What oPodSync sends, and what Nextcloud's app sends: capitals, Unix-time timestamps, -1
  /// for "not known", numbers as strings; an action without an episode is left out and counted.
  func testActionsAreReadAsServersSendThem() async throws {
    server.set(
      "/index.php/apps/gpoddersync/episode_action",
      json(
        """
        {"timestamp": 1795776400, "actions": [
          {"podcast": "https://a.example/f", "episode": "https://cdn.example/1.mp3", "guid": "g1",
           "action": "PLAY", "timestamp": "2026-11-27T10:00:00", "started": 15, "position": "120",
           "total": 500},
          {"id": 54, "podcast": "https://a.example/f", "episode": "https://cdn.example/2.mp3",
           "guid": "", "action": "download", "timestamp": 1795773600, "started": -1,
           "position": -1, "total": -1},
          {"podcast": "https://a.example/f", "episode": "https://cdn.example/3.mp3",
           "action": "play", "timestamp": "2026-11-27T11:00:00.250+01:00", "position": 60,
           "device": "phone"},
          {"podcast": "https://a.example/f", "action": "play"},
          {"podcast": "https://a.example/f", "episode": "https://cdn.example/4.mp3", "action": "flattr"}
        ]}
        """))
    let ten = Date(timeIntervalSince1970: 1_795_773_600)

    let page = try await client(.nextcloud).episodeActions(since: 1_795_770_000)

    XCTAssertEqual(page.timestamp, 1_795_776_400)
    XCTAssertEqual(page.ignored, 2)
    XCTAssertEqual(
      page.actions,
      [
        EpisodeAction(
          podcast: "https://a.example/f", episode: "https://cdn.example/1.mp3", guid: "g1",
          kind: .play, timestamp: ten, started: 15, position: 120, total: 500),
        EpisodeAction(
          podcast: "https://a.example/f", episode: "https://cdn.example/2.mp3", kind: .download,
          timestamp: ten),
        EpisodeAction(
          podcast: "https://a.example/f", episode: "https://cdn.example/3.mp3", kind: .play,
          timestamp: ten.addingTimeInterval(0.25), position: 60, device: "phone"),
      ])
    XCTAssertEqual(
      server.requests.last?.target, "/index.php/apps/gpoddersync/episode_action?since=1795770000")
  }

  func testNextcloudActionsAreUploadedToItsCreatePath() async throws {
    server.set("/index.php/apps/gpoddersync/episode_action/create", json(#"{"timestamp": 9}"#))

    let receipt = try await client(.nextcloud).uploadEpisodeActions([
      .download(
        podcast: "https://a.example/f", episode: "https://cdn.example/1.mp3", guid: nil, at: Date())
    ])

    XCTAssertEqual(receipt, ServerReceipt(timestamp: 9))
    XCTAssertEqual(server.requests.last?.method, "POST")
  }

  // MARK: Failures

  func testAServerErrorCarriesTheServersWords() async throws {
    server.set(
      "/api/2/subscriptions/alice/podcast-box.json",
      json(#"{"code": 500, "message": "database is locked"}"#, status: 500))

    let error = await syncError {
      _ = try await self.client(.gpodder).subscriptionChanges(since: 0)
    }

    XCTAssertEqual(
      error?.description,
      "sync server \(server.baseURL) failed on the subscription changes (HTTP 500 Internal Server Error):"
        + " database is locked")
    XCTAssertEqual(error?.isTransient, true)
  }

  /// FastAPI says `detail` (a sentence, or a list of problems), others `error`, some only
  /// text: the server's own words show wherever they are, one line, bounded.
  func testTheServersWordsAreFoundWhereverTheyAre() async throws {
    let path = "/api/2/subscriptions/alice/podcast-box.json"
    let long = String(repeating: "slow ", count: 100)
    let bodies: [(Route, String?)] = [
      (json(#"{"detail": "database is locked"}"#, status: 500), "database is locked"),
      (
        json(
          #"{"detail": [{"loc": ["query", "since"], "msg": "value is not a valid integer"}]}"#,
          status: 500), "value is not a valid integer"
      ),
      (json(#"{"error": "quota exceeded"}"#, status: 500), "quota exceeded"),
      (json(#"{"error": {"code": 7, "message": "disk full"}}"#, status: 500), "disk full"),
      (json(#"{"status": "down"}"#, status: 500), #"{"status": "down"}"#),
      (.status(500, body: "upstream gone\nat line 2\n"), "upstream gone"),
      (.status(500, body: long), String(long.prefix(200)) + "…"),
      (.status(500, body: "  \n"), nil),
    ]
    for (route, words) in bodies {
      server.set(path, route)

      let error = await syncError {
        _ = try await self.client(.gpodder).subscriptionChanges(since: 0)
      }

      XCTAssertEqual(
        error,
        .serverFailed(
          server: server.baseURL, call: "the subscription changes", status: 500, message: words))
    }
  }

  func testASecretInTheServersWordsIsMaskedBeforeTheyAreCutShort() async throws {
    server.set(
      "/api/2/episodes/alice.json",
      json(
        #"{"detail": "\#(String(repeating: "x", count: 190)) s3cret-wonderland at the end"}"#,
        status: 500))

    let error = await syncError { _ = try await self.client(.gpodder).episodeActions(since: 0) }

    guard case .serverFailed(_, _, _, let message?) = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertFalse(message.contains("s3cret"), message)
    XCTAssertFalse(message.contains("wonder"), message)
  }

  func testAnHTMLErrorPageIsLeftOutOfTheMessage() async throws {
    server.set(
      "/api/2/episodes/alice.json", Route.html("<html><h1>Bad Gateway</h1></html>").withStatus(502))

    let error = await syncError { _ = try await self.client(.gpodder).episodeActions(since: 0) }

    XCTAssertEqual(
      error,
      .serverFailed(server: server.baseURL, call: "the episode actions", status: 502, message: nil))
  }

  func testARefusedURLIsAClientSideRefusal() async throws {
    server.set(
      "/api/2/subscriptions/alice/podcast-box.json",
      json(#"{"code": 400, "message": "Invalid URL: feed://x"}"#, status: 400))

    let error = await syncError {
      _ = try await self.client(.gpodder).pushSubscriptionChanges(add: ["feed://x"], remove: [])
    }

    XCTAssertEqual(
      error?.description,
      "sync server \(server.baseURL) refused the subscription changes sent (HTTP 400 Bad Request):"
        + " Invalid URL: feed://x")
    XCTAssertEqual(error?.isTransient, false)
  }

  func testAStalledAnswerTimesOut() async throws {
    server.set(
      "/api/2/episodes/alice.json",
      json(#"{"timestamp": 1, "actions": []}"#).stalling(after: 0, seconds: nil))

    let error = await syncError {
      _ = try await self.client(.gpodder, stallTimeout: 1).episodeActions(since: 0)
    }

    XCTAssertEqual(
      error, .timedOut(server: server.baseURL, call: "the episode actions", seconds: 1))
    XCTAssertEqual(
      error?.description,
      "sync server \(server.baseURL) stopped answering the episode actions (no data for 1 s)")
  }

  func testMalformedAnswersAreNamedForWhatIsWrong() async throws {
    let path = "/api/2/subscriptions/alice/podcast-box.json"
    let cases: [(String, String)] = [
      (#"{"add": ["https://a.example/f"], "remove": ["#, "not JSON, or JSON cut short"),
      (#"{"add": [], "remove": []}"#, "no timestamp in the JSON"),
      (#"{"add": "https://a.example/f", "remove": [], "timestamp": 1}"#, "no add in the JSON"),
      ("<!DOCTYPE html><html></html>", "an HTML page instead of JSON"),
      ("", "an empty body"),
    ]
    for (body, reason) in cases {
      server.set(path, json(body))
      let error = await syncError {
        _ = try await self.client(.gpodder).subscriptionChanges(since: 0)
      }
      XCTAssertEqual(
        error,
        .malformedAnswer(server: server.baseURL, call: "the subscription changes", reason: reason),
        body)
    }
  }

  func testAServerThatIsDownIsUnreachable() async throws {
    server.stop()

    let error = await syncError {
      _ = try await self.client(.gpodder).subscriptionChanges(since: 0)
    }

    guard case .unreachable(let name, let reason) = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual(name, server.baseURL)
    XCTAssertTrue(reason.contains("/api/2/subscriptions/alice/podcast-box.json"), reason)
    XCTAssertEqual(error?.isTransient, true)
  }

  func testAMissingEndpointIsNotSupported() async throws {
    let error = await syncError { _ = try await self.client(.gpodder).episodeActions(since: 0) }

    XCTAssertEqual(
      error,
      .notSupported(
        server: server.baseURL, call: "the episode actions",
        detail: "HTTP 404 from \(server.url("/api/2/episodes/alice.json?since=0"))"))
  }

  // MARK: The password stays out

  /// A server that echoes what it was sent must not put the password into a message.
  func testAPasswordEchoedByTheServerIsCutFromTheMessage() async throws {
    server.set(
      "/api/2/episodes/alice.json",
      json(#"{"message": "bad login alice:s3cret-wonderland"}"#, status: 500))

    let error = await syncError { _ = try await self.client(.gpodder).episodeActions(since: 0) }

    XCTAssertEqual(
      error,
      .serverFailed(
        server: server.baseURL, call: "the episode actions", status: 500,
        message: "bad login alice:…"))
  }

  func testAnAccountNeverShowsItsPassword() {
    let account = AccountLogin(
      server: "https://bob:hunter2@cloud.example.org/", user: "alice", password: password,
      device: "box")
    var dumped = ""
    dump(account, to: &dumped)

    for text in [String(describing: account), String(reflecting: account), "\(account)", dumped] {
      XCTAssertFalse(text.contains(password), text)
      XCTAssertFalse(text.contains("hunter2"), text)
    }
    XCTAssertEqual(account.description, "alice on https://bob:…@cloud.example.org as device box")
  }

  func testTheDefaultDeviceIsAValidIDFromTheHostName() {
    XCTAssertEqual(AccountLogin.defaultDevice(hostname: "nas.home.arpa"), "podcast-nas")
    XCTAssertEqual(AccountLogin.defaultDevice(hostname: "Mein Rechner_2"), "podcast-Mein-Rechner_2")
    XCTAssertEqual(AccountLogin.defaultDevice(hostname: ""), "podcast-host")
    XCTAssertTrue(AccountLogin.isValidDevice(AccountLogin.defaultDevice(hostname: "ünï cödé")))
    XCTAssertFalse(AccountLogin.isValidDevice("phone/1"))
    XCTAssertFalse(AccountLogin.isValidDevice(""))
  }
}
