import Foundation
import LoopbackServer
import XCTest

final class SubscriptionCommandTests: XCTestCase {
  private var library: URL!
  private var server: LoopbackServer!

  override func setUpWithError() throws {
    library = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-cli-\(UUID().uuidString)")
    XCTAssertTrue(
      FileManager.default.isExecutableFile(atPath: PodcastBinary.url.path),
      "build the podcast executable first (swift build)")
    server = try LoopbackServer()
    for (path, title) in [
      ("/hardcore-history/rss.xml", "Dan Carlin's Hardcore History"), ("/b/feed", "Bee Show"),
      ("/a/feed", "Alpha"), ("/daily", "The Daily"), ("/fork", "Hard Fork"),
    ] {
      FeedFixture.serve(FeedFixture.episodes(2, size: 100), title: title, at: path, on: server)
    }
  }

  private func url(_ path: String) -> String { server.url(path) }

  override func tearDownWithError() throws {
    server.stop()
    try? FileManager.default.removeItem(at: library)
  }

  private func podcast(_ arguments: String...) throws -> PodcastBinary.Result {
    try PodcastBinary.run(arguments, environment: ["PODCAST_LIBRARY": library.path])
  }

  func testSubscribeListAndUnsubscribe() throws {
    let first = try podcast("subscribe", url("/hardcore-history/rss.xml"))
    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertTrue(first.stdout.contains("\"dan-carlin-s-hardcore-history\""), first.stdout)
    XCTAssertEqual(
      try podcast("subscribe", url("/b/feed"), "--name", "Bee", "--keep", "2").status, 0)

    let listed = try podcast("subscriptions", "--json")
    XCTAssertEqual(listed.status, 0, listed.stderr)
    let items = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    XCTAssertEqual(items.map { $0["name"] as? String }, ["dan-carlin-s-hardcore-history", "Bee"])
    XCTAssertEqual(items.map { $0["index"] as? Int }, [1, 2])
    XCTAssertEqual(items[1]["feedURL"] as? String, url("/b/feed"))
    XCTAssertEqual(items[1]["keep"] as? Int, 2)
    XCTAssertTrue(items[0]["keep"] is NSNull, "no retention set")
    XCTAssertEqual(items[0]["title"] as? String, "Dan Carlin's Hardcore History")
    XCTAssertTrue(items[0]["lastChecked"] is NSNull)
    XCTAssertEqual(
      items[0]["episodeCount"] as? Int, 2, "subscribe records the episodes it saw in the feed")

    let gone = try podcast("unsubscribe", "2")
    XCTAssertEqual(gone.status, 0, gone.stderr)
    XCTAssertTrue(gone.stdout.contains("Bee"))
    XCTAssertTrue(try podcast("subscriptions").stdout.contains("hardcore-history"))
    let missing = try podcast("subscribe", url("/nothing-here.xml"))
    XCTAssertEqual(missing.status, 1)
    XCTAssertTrue(missing.stderr.contains("404"), missing.stderr)
    XCTAssertFalse(try podcast("subscriptions").stdout.contains("Bee"))
  }

  func testErrorsAreOneLineAndExitOne() throws {
    _ = try podcast("subscribe", url("/a/feed"), "--name", "alpha")
    _ = try podcast("subscribe", url("/b/feed"), "--name", "alpine")
    for (arguments, expected) in [
      (["subscribe", url("/a/feed")], "already subscribed to \(url("/a/feed"))"),
      (["subscribe", "ftp://a.example/feed"], "ftp://a.example/feed"),
      // A subscription's name is not something to subscribe to.
      (["subscribe", "alpha"], "cannot subscribe to alpha: give an http(s) feed URL"),
      (["unsubscribe", "al"], "alpha, alpine"),
      (["unsubscribe", "zebra"], "zebra"),
      (["import", library.appendingPathComponent("missing.opml").path], "missing.opml"),
    ] {
      let result = try PodcastBinary.run(arguments, environment: ["PODCAST_LIBRARY": library.path])
      XCTAssertEqual(result.status, 1, "\(arguments)")
      XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
      XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
    }
  }

  /// `--user` on something that is not an http(s) URL is a usage error (64), not a failure.
  func testCredentialsForALocalFeedAreAUsageError() throws {
    let feed = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-feed-\(UUID().uuidString).xml")
    try Data(
      FeedFixture.rss(
        title: "Local", episodes: FeedFixture.episodes(1, size: 100), base: server.baseURL
      ).utf8
    ).write(to: feed)
    defer { try? FileManager.default.removeItem(at: feed) }
    let result = try PodcastBinary.run(
      ["subscribe", feed.path, "--user", "bob"],
      environment: ["PODCAST_LIBRARY": library.path, "PODCAST_PASSWORD": "secret"])
    XCTAssertEqual(result.status, 64, result.stderr)
    XCTAssertTrue(
      result.stderr.contains("--user needs an http(s) feed URL, not \(feed.path)"), result.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: library.path), "nothing was created")
  }

  func testImportOfALargeFileAddsEachFeedOnce() throws {
    try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    let opml = library.appendingPathComponent("many.opml")
    // 300 feeds whose titles repeat (so names need suffixes), one of them listed twice.
    let outlines = (1...300).map {
      "<outline type=\"rss\" text=\"Show \($0 % 7)\" xmlUrl=\"\(url("/feed-\($0)"))\"/>"
    }
    let again = "<outline text=\"Again\" xmlUrl=\"\(url("/feed-5"))\"/>"
    try Data(
      "<opml version=\"2.0\"><body>\((outlines + [again]).joined())</body></opml>".utf8
    ).write(to: opml)
    let imported = try podcast("import", opml.path)
    XCTAssertEqual(imported.status, 0, imported.stderr)
    XCTAssertTrue(imported.stdout.contains("Imported 300 subscriptions"), imported.stdout)
    let rerun = try podcast("import", opml.path)
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    XCTAssertTrue(rerun.stdout.contains("Imported 0 subscriptions"), rerun.stdout)
    let listed = try podcast("subscriptions", "--json")
    XCTAssertEqual(listed.stdout.components(separatedBy: "\"feedURL\"").count - 1, 300)
    XCTAssertTrue(listed.stdout.contains("\"show-3-2\""), listed.stdout)
  }

  func testImportSkipsKnownFeedsAndExportRoundTrips() throws {
    try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    let opml = library.appendingPathComponent("feeds.opml")
    try Data(
      """
      <opml version="1.0"><body><outline text="Folder">
        <outline text="The Daily" xmlUrl="\(url("/daily"))"/>
        <outline text="Hard Fork" xmlurl="\(url("/fork"))"/>
      </outline></body></opml>
      """.utf8
    ).write(to: opml)
    _ = try podcast("subscribe", url("/daily"), "--name", "daily")
    let imported = try podcast("import", opml.path)
    XCTAssertEqual(imported.status, 0, imported.stderr)
    XCTAssertTrue(imported.stdout.contains("Imported 1 subscription"), imported.stdout)
    XCTAssertTrue(imported.stdout.contains("1 already subscribed"), imported.stdout)
    XCTAssertTrue(try podcast("subscriptions").stdout.contains("hard-fork"))

    let exported = try podcast("export")
    XCTAssertEqual(exported.status, 0, exported.stderr)
    XCTAssertTrue(exported.stdout.contains("xmlUrl=\"\(url("/daily"))\""))
    XCTAssertTrue(exported.stdout.contains("xmlUrl=\"\(url("/fork"))\""))

    let file = library.appendingPathComponent("out.opml")
    XCTAssertEqual(try podcast("export", file.path).status, 0)
    let other = library.appendingPathComponent("other")
    let again = try PodcastBinary.run(
      ["import", file.path], environment: ["PODCAST_LIBRARY": other.path])
    XCTAssertTrue(again.stdout.contains("Imported 2 subscriptions"), again.stdout)
    XCTAssertEqual(
      try listed(in: other), try listed(in: library), "the export did not import into the same list"
    )
  }

  /// Each subscription's name and feed URL, in order.
  private func listed(in library: URL) throws -> [String] {
    let result = try PodcastBinary.run(
      ["subscriptions", "--json"], environment: ["PODCAST_LIBRARY": library.path])
    let items = try XCTUnwrap(try result.json() as? [[String: Any]])
    return items.map { "\($0["name"] ?? "") \($0["feedURL"] ?? "")" }
  }
}
