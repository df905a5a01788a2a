import Foundation
import LoopbackServer
import XCTest

/// A private feed's URL is its password: it must never show in what `podcast` prints, logs or
/// exports, unless the user asks for it.
final class PrivateFeedTests: LibraryTestCase {
  private let feedSecret = "FEEDSECRET3f9c"
  private let linkSecret = "LINKSECRETa1b2"

  /// A Patreon-style feed (`?auth=`) whose episodes are signed links (`token-hash=`).
  private func servePrivateFeed() -> (feed: String, episodes: [FakeEpisode]) {
    let episodes = FeedFixture.episodes(2, size: 3_000)
    let items = episodes.map { episode in
      """
      <item><title>\(episode.title)</title><guid>\(episode.guid)</guid>
      <pubDate>\(FeedFixture.rfc822(episode.published))</pubDate>
      <enclosure url="\(server.url(episode.path))?token-time=1700000000&amp;token-hash=\(linkSecret)" length="\(episode.body.count)" type="audio/mpeg"/></item>
      """
    }
    let rss = """
      <rss version="2.0"><channel><title>Members Only</title>\(items.joined())</channel></rss>
      """
    server.set("/rss/show", .text(rss, contentType: "application/rss+xml"))
    for episode in episodes {
      server.set(episode.path, .data(episode.body, contentType: "audio/mpeg"))
    }
    return (server.url("/rss/show") + "?auth=\(feedSecret)&show=12", episodes)
  }

  func testSecretsNeverShowInOutputLogsOrExports() throws {
    let (feed, episodes) = servePrivateFeed()
    server.set(episodes[1].path, .status(500))  // so an error line names the signed link
    var printed = ""
    func run(_ arguments: String...) throws {
      let result = try binary.run(arguments)
      printed += result.stdout + result.stderr
    }
    try run("subscribe", feed, "--name", "members")
    try run("subscriptions")
    try run("subscriptions", "--json")
    try run("episodes", "members")
    try run("episodes", "members", "--json")
    try run("download", "members", "1-2")
    try run("download", "members", "1-2", "--json")
    try run("sync")
    try run("status")
    try run("status", "--json")
    try run("export")
    try run("export", binary.library + "/backup.opml")

    XCTAssertTrue(printed.contains("auth=…"), printed)
    XCTAssertTrue(printed.contains("token-hash=…"), printed)
    for secret in [feedSecret, linkSecret] {
      XCTAssertFalse(printed.contains(secret), "\(secret) printed:\n\(printed)")
      // The database, which holds the kept copy of the feed too (the feed, tokens and all):
      // library state, readable by its owner only.
      for file in filesContaining(secret, in: binary.library) {
        XCTAssertTrue(
          file.hasPrefix(binary.library + "/.podcast/library.sqlite"),
          "\(secret) written to \(file)")
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions]
        XCTAssertEqual(mode as? Int, 0o600, file)
      }
    }
    XCTAssertEqual(server.requests(for: episodes[0].path).first?.query?.contains(linkSecret), true)
  }

  func testShowSecretsAndIncludePrivateAreTheWayToGetThem() throws {
    let (feed, _) = servePrivateFeed()
    XCTAssertEqual(try binary.run(["subscribe", feed, "--name", "members"]).status, 0)
    let listing = try binary.run(["episodes", "members", "--json", "--show-secrets"])
    XCTAssertTrue(listing.stdout.contains("token-hash=\(linkSecret)"), listing.stdout)
    XCTAssertTrue(
      try binary.run(["subscriptions", "--json", "--show-secrets"]).stdout.contains(feedSecret))

    let path = binary.library + "/private.opml"
    let export = try binary.run(["export", path, "--include-private"])
    XCTAssertEqual(export.status, 0, export.stderr)
    XCTAssertTrue(export.stderr.contains("keep it private"), export.stderr)
    let written = try String(contentsOfFile: path, encoding: .utf8)
    XCTAssertTrue(written.contains(feedSecret))
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    XCTAssertEqual(mode, 0o600)
    let library = binary.library + "/.podcast/library.sqlite"
    XCTAssertEqual(
      try FileManager.default.attributesOfItem(atPath: library)[.posixPermissions] as? Int, 0o600,
      "the library holds the feed's token")
    let downloaded = try binary.run(["download", "members", "1", "--json", "--show-secrets"])
    XCTAssertTrue(downloaded.stdout.contains(linkSecret), downloaded.stdout)
    XCTAssertTrue(
      try binary.run(["status", "--json", "--show-secrets"]).stdout.contains(linkSecret))
    XCTAssertFalse(try binary.run(["status", "--json"]).stdout.contains(linkSecret))
  }

  /// A feed behind Basic auth whose episodes live on another host (`localhost` instead of
  /// `127.0.0.1`, a different origin), the way hosts put audio on a CDN.
  private func serveBasicAuthFeed() throws -> (
    feed: String, cdn: LoopbackServer, episode: FakeEpisode
  ) {
    let cdn = try LoopbackServer()
    let episode = FeedFixture.episodes(1, size: 2_000)[0]
    cdn.set(episode.path, .data(episode.body, contentType: "audio/mpeg"))
    let cdnBase = "http://localhost:\(cdn.port)"
    let rss = FeedFixture.rss(title: "Paid Show", episodes: [episode], base: cdnBase)
    server.set(
      "/paid.xml",
      Route.text(rss, contentType: "application/rss+xml")
        .requiringBasicAuth(user: "ada", password: "pa ss:wörd"))
    return (server.url("/paid.xml"), cdn, episode)
  }

  func testABasicAuthFeedWorksWithUserAndPasswordAndTheCDNNeverSeesThem() throws {
    let (feed, cdn, episode) = try serveBasicAuthFeed()
    defer { cdn.stop() }
    var withPassword = binary!
    withPassword.environment["PODCAST_PASSWORD"] = "pa ss:wörd"
    let subscribed = try withPassword.run(["subscribe", feed, "--user", "ada", "--name", "paid"])
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    XCTAssertFalse(subscribed.stdout.contains("wörd"), subscribed.stdout)

    let synced = try binary.run(["sync"])  // no password in the environment: the library has it
    XCTAssertEqual(synced.status, 0, synced.stderr)
    assertEpisodeFiles([episode])
    XCTAssertTrue(server.requests(for: "/paid.xml").contains { $0.header("authorization") != nil })
    for request in cdn.requests {
      XCTAssertNil(request.header("authorization"), "credentials leaked to another host")
    }
  }

  func testCredentialsDoNotFollowARedirectToAnotherHost() throws {
    let other = try LoopbackServer()
    defer { other.stop() }
    other.set("/feed.xml", .text("<rss><channel><title>Elsewhere</title></channel></rss>"))
    server.set("/moved.xml", .redirect(to: "http://localhost:\(other.port)/feed.xml"))
    let url = try XCTUnwrap(
      FeedCredentialsURL.with(user: "ada", password: "secret", in: server.url("/moved.xml")))
    let result = try binary.run(["episodes", url])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertNotNil(server.requests(for: "/moved.xml").first?.header("authorization"))
    XCTAssertNil(other.requests(for: "/feed.xml").first?.header("authorization"))
    XCTAssertEqual(other.requests(for: "/feed.xml").count, 1)
  }

  func testAWrongPasswordIsOneLineThatSaysSo() throws {
    let (feed, cdn, _) = try serveBasicAuthFeed()
    defer { cdn.stop() }
    let passwordFile = binary.library + "/password"
    try "wrong\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
    let result = try binary.run([
      "subscribe", feed, "--user", "ada", "--password-file", passwordFile,
    ])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains("401") && result.stderr.contains("refused"), result.stderr)
    XCTAssertTrue(result.stderr.contains("ada:…@"), result.stderr)
    XCTAssertFalse(result.stderr.contains("wrong"), result.stderr)
  }

  func testNetrcGivesTheCredentials() throws {
    let (feed, cdn, _) = try serveBasicAuthFeed()
    defer { cdn.stop() }
    let netrc = binary.library + "/.netrc"  // HOME is the library in these tests
    try "machine 127.0.0.1 login ada password pa ss:wörd\n"
      .replacingOccurrences(of: "pa ss:wörd", with: "\"pa ss:wörd\"")
      .write(toFile: netrc, atomically: true, encoding: .utf8)
    chmod(netrc, 0o600)
    let result = try binary.run(["episodes", feed])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.hasPrefix("Paid Show"), result.stdout)
  }

  /// A Patreon-style feed whose signed link expires between the listing and the download (or
  /// mid-download): the server refuses the old signature, the feed serves a fresh one.
  /// `links`: what the enclosure path answers, request by request, before the whole file.
  /// The feed's n-th fetch signs with token n (up to `fetches`).
  private func serveRotatingFeed(body: Data, links: [Route], fetches: Int = 2) -> String {
    func feed(token: String) -> Route {
      .text(
        """
        <rss version="2.0"><channel><title>Rotating</title>
        <item><title>Signed</title><guid>signed-1</guid>
        <enclosure url="\(server.url("/media/signed.mp3"))?token-time=\(token)&amp;token-hash=h\(token)" length="\(body.count)" type="audio/mpeg"/></item>
        </channel></rss>
        """, contentType: "application/rss+xml")
    }
    server.set("/rotating.xml", .sequence((1...fetches).map { feed(token: String($0)) }))
    let file = Route.data(body, contentType: "audio/mpeg").withETag("\"same-file\"")
    server.set("/media/signed.mp3", .sequence(links + [file]))
    return server.url("/rotating.xml")
  }

  func testAnExpiredSignedLinkIsFetchedAgainFromTheFeed() throws {
    let body = FeedFixture.bytes(40_000, seed: 5)
    let feed = serveRotatingFeed(body: body, links: [.status(403)])
    let result = try binary.run(["download", feed, "1"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(episodeBodies(), [body])
    let links = server.requests(for: "/media/signed.mp3").map { $0.query ?? "" }
    XCTAssertEqual(links.first, "token-time=1&token-hash=h1")
    XCTAssertEqual(links.last, "token-time=2&token-hash=h2", "the fresh link from the feed")
    XCTAssertEqual(server.requests(for: "/rotating.xml").count, 2)
  }

  func testAResumeAcrossARenewedLinkKeepsTheBytesAlreadyThere() throws {
    let body = FeedFixture.bytes(200_000, seed: 6)
    let firstLink = Route.data(body, contentType: "audio/mpeg").withETag("\"same-file\"")
      .dropping(after: 120_000)
    let feed = serveRotatingFeed(body: body, links: [firstLink, .status(403)])
    let result = try binary.run(["download", feed, "1"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(episodeBodies(), [body])
    let last = try XCTUnwrap(server.requests(for: "/media/signed.mp3").last)
    XCTAssertEqual(last.query, "token-time=2&token-hash=h2")
    XCTAssertEqual(last.header("range"), "bytes=120000-", "resumed, not fetched again")
    XCTAssertEqual(last.header("if-range"), "\"same-file\"")
  }

  func testAudioOnTheFeedsOwnHostGetsTheFeedsLogin() throws {
    let episode = FeedFixture.episodes(1, size: 3_000)[0]
    let rss = FeedFixture.rss(title: "Same Host", episodes: [episode], base: server.baseURL)
    server.set(
      "/members.xml", Route.text(rss).requiringBasicAuth(user: "ada", password: "pw"))
    server.set(
      episode.path,
      Route.data(episode.body, contentType: "audio/mpeg").requiringBasicAuth(
        user: "ada", password: "pw"))
    var withPassword = binary!
    withPassword.environment["PODCAST_PASSWORD"] = "pw"
    let subscribed = try withPassword.run([
      "subscribe", server.url("/members.xml"), "--user", "ada", "--name", "members",
    ])
    XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
    let synced = try binary.run(["sync"])
    XCTAssertEqual(synced.status, 0, synced.stderr)
    assertEpisodeFiles([episode])
  }

  func testSyncKeepsDownloadingAfterTheLinksRotate() throws {
    let body = FeedFixture.bytes(30_000, seed: 7)
    // Fetched by subscribe, by sync, and once more when the link is refused.
    let feed = serveRotatingFeed(body: body, links: [.status(410)], fetches: 3)
    XCTAssertEqual(try binary.run(["subscribe", feed, "--name", "rotating"]).status, 0)
    let synced = try binary.run(["sync"])
    XCTAssertEqual(synced.status, 0, synced.stderr)
    XCTAssertEqual(episodeBodies(), [body])
    XCTAssertEqual(
      server.requests(for: "/media/signed.mp3").map(\.query),
      ["token-time=2&token-hash=h2", "token-time=3&token-hash=h3"])
  }

  /// Every regular file under `directory` whose bytes contain `secret`.
  private func filesContaining(_ secret: String, in directory: String) -> [String] {
    let needle = Data(secret.utf8)
    let enumerator = FileManager.default.enumerator(atPath: directory)
    var found: [String] = []
    while let relative = enumerator?.nextObject() as? String {
      let path = directory + "/" + relative
      if let data = FileManager.default.contents(atPath: path), data.range(of: needle) != nil {
        found.append(path)
      }
    }
    return found
  }
}

/// `http://user:password@host/…` for the tests.
enum FeedCredentialsURL {
  static func with(user: String, password: String, in url: String) -> String? {
    var components = URLComponents(string: url)
    components?.user = user
    components?.password = password
    return components?.string
  }
}
