import Basics
import Foundation
import Store
import StoreTestSupport
import XCTest

/// The library's copies of feeds (`KeptFeed`, `KeptFeeds`): what is kept comes back as it was,
/// and a copy that is not whole is never taken for one (its validators would ask a server
/// to confirm a document the library does not have).
final class KeptFeedTests: XCTestCase {
  private let feedURL = "https://example.com/show.xml"

  /// An RSS document of `count` items, about 600 bytes each, as real feeds repeat themselves.
  private func document(items count: Int) -> Data {
    var xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
      <channel><title>Kept Show</title><link>https://example.com/</link>

      """
    for number in stride(from: count, through: 1, by: -1) {
      let day = String(format: "%02d", number % 28 + 1)
      xml += """
        <item><title>Episode \(number): a conversation about things</title>
        <guid isPermaLink="false">kept-\(number)</guid>
        <pubDate>Wed, \(day) May 2024 10:00:00 GMT</pubDate>
        <itunes:duration>\(1000 + number)</itunes:duration>
        <description><![CDATA[<p>Show notes for episode \(number), with a link to
        <a href="https://example.com/\(number)">the page</a> and the usual sponsors.</p>]]></description>
        <enclosure url="/media/\(number).mp3" length="\(10_000 + number)" type="audio/mpeg"/>
        </item>

        """
    }
    return Data((xml + "</channel></rss>\n").utf8)
  }

  private func copy(of document: Data, validators: Validators) throws -> KeptFeed {
    KeptFeed(
      feedURL: feedURL, validators: validators,
      pages: [
        KeptFeed.Page(
          url: "https://cdn.example.com/show.xml",
          document: try CompressedDocument(compressing: document), documentBytes: document.count)
      ])
  }

  func testACompressedDocumentInflatesToItsBytesAndIsMuchSmaller() throws {
    let original = document(items: 5_000)
    let compressed = try CompressedDocument(compressing: original)
    XCTAssertLessThan(compressed.data.count, original.count / 4, "XML compresses well")
    var inflated = Data()
    var largest = 0
    try compressed.inflate { chunk in
      inflated.append(contentsOf: chunk)
      largest = max(largest, chunk.count)
    }
    XCTAssertEqual(inflated, original)
    XCTAssertLessThanOrEqual(largest, 64 << 10, "read in chunks, not as one document")
  }

  func testACopyComesBackFromItsFileWithItsValidatorsAndParsesAsTheFeed() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    let kept = KeptFeeds(paths: library.paths)
    let validators = Validators(etag: "\"v7\"", lastModified: "Wed, 01 May 2024 10:00:00 GMT")
    let original = document(items: 30)
    try kept.keep(try copy(of: original, validators: validators), subscriptionId: 4)

    let read = try XCTUnwrap(try kept.copy(subscriptionId: 4))
    XCTAssertEqual(read.feed, try copy(of: original, validators: validators))
    XCTAssertLessThan(abs(read.checked.timeIntervalSinceNow), 60)
    XCTAssertEqual(kept.validators(subscriptionId: 4, feedURL: feedURL), validators)
    let feed = try read.feed.feed()
    XCTAssertEqual(feed.podcast.title, "Kept Show")
    XCTAssertEqual(feed.episodes.count, 30)
    XCTAssertEqual(
      feed.episodes.first { $0.guid == "kept-30" }?.enclosure.url,
      "https://cdn.example.com/media/30.mp3", "relative links resolve against the page's URL")
    let mode =
      try FileManager.default.attributesOfItem(atPath: kept.path(subscriptionId: 4))[
        .posixPermissions] as? Int
    XCTAssertEqual(mode, 0o600, "a private feed's copy holds its tokens")
  }

  func testNoCopyIsNoneAndHasNoValidators() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    let kept = KeptFeeds(paths: library.paths)
    XCTAssertNil(try kept.copy(subscriptionId: 1))
    XCTAssertNil(kept.validators(subscriptionId: 1, feedURL: feedURL))
  }

  func testACopyKeptForAnotherAddressGivesNoValidators() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    let kept = KeptFeeds(paths: library.paths)
    try kept.keep(
      try copy(of: document(items: 2), validators: Validators(etag: "\"a\"")), subscriptionId: 1)
    XCTAssertNil(kept.validators(subscriptionId: 1, feedURL: "https://moved.example.com/feed"))
  }

  func testACopyCutShortIsDamagedAndGivesNoValidators() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    let kept = KeptFeeds(paths: library.paths)
    try kept.keep(
      try copy(of: document(items: 200), validators: Validators(etag: "\"a\"")), subscriptionId: 2)
    let path = kept.path(subscriptionId: 2)
    let whole = try Data(contentsOf: URL(fileURLWithPath: path))
    try whole.prefix(whole.count - 100).write(to: URL(fileURLWithPath: path))

    XCTAssertNil(kept.validators(subscriptionId: 2, feedURL: feedURL))
    XCTAssertThrowsError(try kept.copy(subscriptionId: 2)) { error in
      guard case .damaged(let damaged, _)? = error as? KeptFeedError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(damaged, path, "the error names the file")
    }
  }

  func testACorruptedByteFailsTheChecksumWhenRead() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    let kept = KeptFeeds(paths: library.paths)
    try kept.keep(
      try copy(of: document(items: 200), validators: Validators(etag: "\"a\"")), subscriptionId: 3)
    let path = kept.path(subscriptionId: 3)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    bytes[bytes.count - 2000] ^= 0x55
    try bytes.write(to: URL(fileURLWithPath: path))

    // The size is right, so only reading the document finds it: the listing then fetches
    // the feed whole (see `SubscribedFeed`).
    let read = try XCTUnwrap(try kept.copy(subscriptionId: 3))
    XCTAssertThrowsError(try read.feed.feed())
  }

  func testAFileOfAnotherFormatIsDamagedNotACopy() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    let kept = KeptFeeds(paths: library.paths)
    try FileManager.default.createDirectory(
      atPath: kept.folder, withIntermediateDirectories: true)
    try Data("<rss/>".utf8).write(to: URL(fileURLWithPath: kept.path(subscriptionId: 5)))
    XCTAssertNil(kept.validators(subscriptionId: 5, feedURL: feedURL))
    XCTAssertThrowsError(try kept.copy(subscriptionId: 5))
  }

  func testTheHeaderKeepsValuesOnOneLine() throws {
    let sneaky = Validators(etag: "\"a\"\nfeed https://evil.example.com/")
    let encoded = try copy(of: document(items: 1), validators: sneaky).encoded()
    let header = try XCTUnwrap(KeptFeed.Header(encoded))
    XCTAssertEqual(header.feedURL, feedURL)
    XCTAssertEqual(header.validators.etag, "\"a\" feed https://evil.example.com/")
  }

  func testACopyLeftHalfWrittenByAKilledRunIsRemovedButOneBeingWrittenStays() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    let kept = KeptFeeds(paths: library.paths)
    try FileManager.default.createDirectory(atPath: kept.folder, withIntermediateDirectories: true)
    let abandoned = kept.folder + "/.kept-2147483646-A.tmp"
    let running = kept.folder + "/.kept-\(getpid())-B.tmp"
    for path in [abandoned, running] { try Data("x".utf8).write(to: URL(fileURLWithPath: path)) }
    try kept.keep(try copy(of: document(items: 1), validators: Validators()), subscriptionId: 7)

    kept.removeAbandonedTemporaries()
    XCTAssertFalse(FileManager.default.fileExists(atPath: abandoned))
    XCTAssertTrue(FileManager.default.fileExists(atPath: running))
    XCTAssertNotNil(try kept.copy(subscriptionId: 7))
  }

  func testConfirmingACopyMakesItCurrent() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    let kept = KeptFeeds(paths: library.paths)
    try kept.keep(try copy(of: document(items: 1), validators: Validators()), subscriptionId: 6)
    let old = Date(timeIntervalSinceNow: -86_400 * 5)
    try FileManager.default.setAttributes(
      [.modificationDate: old], ofItemAtPath: kept.path(subscriptionId: 6))
    XCTAssertLessThan(
      try XCTUnwrap(try kept.copy(subscriptionId: 6)).checked, Date(timeIntervalSinceNow: -86_400))
    kept.confirm(subscriptionId: 6)
    XCTAssertLessThan(
      abs(try XCTUnwrap(try kept.copy(subscriptionId: 6)).checked.timeIntervalSinceNow), 60)
  }
}
