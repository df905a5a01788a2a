import Foundation
import Model
import PodcastKit
import Store
import XCTest

/// `import` without the command line: what becomes of each entry of an OPML file.
final class ImportSubscriptionsTests: XCTestCase {
  private var fixture: UseCaseFixture!

  override func setUpWithError() throws {
    fixture = try UseCaseFixture()
  }

  override func tearDown() {
    fixture = nil
  }

  private var importer: ImportSubscriptions { ImportSubscriptions(paths: fixture.paths) }

  private func opml(_ outlines: [String]) throws -> String {
    try fixture.file(
      "subscriptions.opml",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <opml version="2.0"><body>
      \(outlines.joined(separator: "\n"))
      </body></opml>
      """)
  }

  func testAddsNewFeedsAndSkipsSubscribedOnes() throws {
    try Subscriptions(store: fixture.store()).add(
      name: "had", feedURL: "https://a.example/feed", title: nil, keep: nil)
    let file = try opml([
      #"<outline text="A" xmlUrl="https://a.example/feed"/>"#,
      #"<outline text="Bee Show" xmlUrl="https://b.example/feed"/>"#,
      // A name taken by another feed gets the next free one.
      #"<outline text="Had" xmlUrl="https://c.example/feed"/>"#,
    ])

    let outcome = try importer.run(file: file)

    XCTAssertEqual(outcome.added, ["https://b.example/feed", "https://c.example/feed"])
    XCTAssertEqual(outcome.alreadySubscribed, 1)
    XCTAssertTrue(outcome.failed.isEmpty)
    XCTAssertEqual(
      try Subscriptions(store: fixture.store()).all().map(\.name), ["had", "bee-show", "had-2"])
  }

  func testOurOwnExportComesBackWithItsNamesRetentionAndSettings() throws {
    var settings = SubscriptionSettings()
    settings.filter.match = "^Full"
    let store = try fixture.store()
    try Subscriptions(store: store).add(
      name: "mine", feedURL: "https://a.example/feed", title: "A", keep: 3, settings: settings)
    let exported = try ExportSubscriptions(paths: fixture.paths).run(includePrivate: false)
    try Subscriptions(store: store).remove(
      id: try XCTUnwrap(Subscriptions(store: store).all().first?.id))
    let file = try fixture.file("export.opml", exported.document)

    let outcome = try importer.run(file: file)

    XCTAssertEqual(outcome.added, ["https://a.example/feed"])
    let subscription = try XCTUnwrap(Subscriptions(store: store).all().first)
    XCTAssertEqual(subscription.name, "mine")
    XCTAssertEqual(subscription.keep, 3)
    XCTAssertEqual(try SavedSettings(store: store).of(subscriptionId: subscription.id), settings)
  }

  func testAMissingFileImportsNothingAndCreatesNoLibrary() throws {
    let missing = fixture.library.directory.appendingPathComponent("nope.opml").path
    XCTAssertThrowsError(try importer.run(file: missing)) { error in
      XCTAssertEqual(String(describing: error), "cannot import \(missing): no such file")
    }
    XCTAssertFalse(fixture.libraryExists)
  }

  func testAFileThatIsNotOPMLSaysWhy() throws {
    let file = try fixture.file("feed.xml", fixture.rss("/feed.xml", title: "Show", count: 1))
    XCTAssertThrowsError(try importer.run(file: file)) { error in
      XCTAssertTrue(
        String(describing: error).hasPrefix("cannot import \(file): "), "\(error)")
      XCTAssertTrue(error is ImportSubscriptions.FileError)
    }
  }
}
