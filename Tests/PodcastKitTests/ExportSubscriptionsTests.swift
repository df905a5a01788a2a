import Foundation
import PodcastKit
import Store
import XCTest

/// `export` without the command line: a private feed's URL is its password, so it is left out
/// unless asked for, and a file that holds one is readable by its owner alone.
final class ExportSubscriptionsTests: XCTestCase {
  private var fixture: UseCaseFixture!
  private let privateFeed = "https://paid.example/feed.xml?token=s3cr3t"

  override func setUpWithError() throws {
    fixture = try UseCaseFixture()
    let store = try fixture.store()
    try Subscriptions(store: store).add(
      name: "public", feedURL: "https://open.example/feed.xml", title: "Open", keep: nil)
    try Subscriptions(store: store).add(
      name: "paid", feedURL: privateFeed, title: "Paid", keep: nil)
  }

  override func tearDown() {
    fixture = nil
  }

  private var export: ExportSubscriptions { ExportSubscriptions(paths: fixture.paths) }

  private func target() -> String {
    fixture.library.directory.appendingPathComponent("out.opml").path
  }

  private func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try XCTUnwrap(attributes[.posixPermissions] as? Int)
  }

  func testAPrivateFeedIsLeftOutUnlessAskedFor() throws {
    let file = target()

    let outcome = try export.run(includePrivate: false, to: file)

    XCTAssertEqual(outcome.exported, 1)
    XCTAssertEqual(outcome.leftOut, ["paid"])
    XCTAssertFalse(outcome.holdsPrivateFeeds)
    XCTAssertNil(outcome.writeFailure)
    let written = try String(contentsOfFile: file, encoding: .utf8)
    XCTAssertEqual(written, outcome.document)
    XCTAssertTrue(written.contains("https://open.example/feed.xml"))
    XCTAssertFalse(written.contains("s3cr3t"))
    XCTAssertEqual(try mode(file), 0o644)
  }

  func testAskedForPrivateFeedsGoInAFileOnlyItsOwnerCanRead() throws {
    let file = target()

    let outcome = try export.run(includePrivate: true, to: file)

    XCTAssertEqual(outcome.exported, 2)
    XCTAssertEqual(outcome.leftOut, [])
    XCTAssertTrue(outcome.holdsPrivateFeeds)
    XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("s3cr3t"))
    XCTAssertEqual(try mode(file), 0o600)
  }

  func testWithoutAFileNothingIsWrittenAndTheDocumentIsReturned() throws {
    let outcome = try export.run(includePrivate: false)

    XCTAssertTrue(outcome.document.hasPrefix("<?xml"))
    XCTAssertTrue(outcome.document.contains("https://open.example/feed.xml"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: target()))
  }

  func testAFileThatCannotBeWrittenIsAFailureInTheOutcome() throws {
    let file = fixture.library.directory.appendingPathComponent("missing/out.opml").path

    let outcome = try export.run(includePrivate: true, to: file)

    XCTAssertEqual(outcome.writeFailure?.file, file)
    XCTAssertEqual(
      outcome.writeFailure.map(String.init(describing:)),
      "cannot write \(file): No such file or directory")
    XCTAssertTrue(outcome.holdsPrivateFeeds, "the note on private feeds can still be told")
  }
}
