import Foundation
import XCTest

final class SubscriptionCommandTests: XCTestCase {
  private var library: URL!

  override func setUpWithError() throws {
    library = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-cli-\(UUID().uuidString)")
    XCTAssertTrue(
      FileManager.default.isExecutableFile(atPath: PodcastBinary.url.path),
      "build the podcast executable first (swift build)")
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: library)
  }

  private func podcast(_ arguments: String...) throws -> PodcastBinary.Result {
    try PodcastBinary.run(arguments, environment: ["PODCAST_LIBRARY": library.path])
  }

  func testSubscribeListAndUnsubscribe() throws {
    let first = try podcast("subscribe", "https://feeds.example.com/hardcore-history/rss.xml")
    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertTrue(first.stdout.contains("\"hardcore-history\""), first.stdout)
    XCTAssertEqual(try podcast("subscribe", "https://b.example/feed", "--name", "Bee", "--keep", "2").status, 0)

    let listed = try podcast("subscriptions", "--json")
    XCTAssertEqual(listed.status, 0, listed.stderr)
    let items = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    XCTAssertEqual(items.map { $0["name"] as? String }, ["hardcore-history", "Bee"])
    XCTAssertEqual(items.map { $0["index"] as? Int }, [1, 2])
    XCTAssertEqual(items[1]["feedURL"] as? String, "https://b.example/feed")
    XCTAssertTrue(items[0]["title"] is NSNull)
    XCTAssertTrue(items[0]["lastChecked"] is NSNull)
    XCTAssertEqual(items[0]["episodeCount"] as? Int, 0)

    let gone = try podcast("unsubscribe", "2")
    XCTAssertEqual(gone.status, 0, gone.stderr)
    XCTAssertTrue(gone.stdout.contains("Bee"))
    XCTAssertTrue(try podcast("subscriptions").stdout.contains("hardcore-history"))
    XCTAssertFalse(try podcast("subscriptions").stdout.contains("Bee"))
  }

  func testErrorsAreOneLineAndExitOne() throws {
    _ = try podcast("subscribe", "https://a.example/feed", "--name", "alpha")
    _ = try podcast("subscribe", "https://b.example/feed", "--name", "alpine")
    for (arguments, expected) in [
      (["subscribe", "https://a.example/feed"], "already subscribed to https://a.example/feed"),
      (["subscribe", "ftp://a.example/feed"], "ftp://a.example/feed"),
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

  func testImportSkipsKnownFeedsAndExportRoundTrips() throws {
    try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    let opml = library.appendingPathComponent("feeds.opml")
    try Data(
      """
      <opml version="1.0"><body><outline text="Folder">
        <outline text="The Daily" xmlUrl="https://d.example/daily"/>
        <outline text="Hard Fork" xmlurl="https://h.example/fork"/>
      </outline></body></opml>
      """.utf8
    ).write(to: opml)
    _ = try podcast("subscribe", "https://d.example/daily", "--name", "daily")
    let imported = try podcast("import", opml.path)
    XCTAssertEqual(imported.status, 0, imported.stderr)
    XCTAssertTrue(imported.stdout.contains("Imported 1 subscription"), imported.stdout)
    XCTAssertTrue(imported.stdout.contains("1 already subscribed"), imported.stdout)
    XCTAssertTrue(try podcast("subscriptions").stdout.contains("hard-fork"))

    let exported = try podcast("export")
    XCTAssertEqual(exported.status, 0, exported.stderr)
    XCTAssertTrue(exported.stdout.contains(#"xmlUrl="https://d.example/daily""#))
    XCTAssertTrue(exported.stdout.contains(#"xmlUrl="https://h.example/fork""#))

    let file = library.appendingPathComponent("out.opml")
    XCTAssertEqual(try podcast("export", file.path).status, 0)
    let other = library.appendingPathComponent("other")
    let again = try PodcastBinary.run(["import", file.path], environment: ["PODCAST_LIBRARY": other.path])
    XCTAssertTrue(again.stdout.contains("Imported 2 subscriptions"), again.stdout)
  }
}
