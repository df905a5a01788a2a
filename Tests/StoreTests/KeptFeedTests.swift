import Basics
import Foundation
import GRDB
import Model
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

  /// A library with `count` subscriptions, ids 1 to `count`.
  private func library(subscriptions count: Int) throws -> (TemporaryLibrary, LibraryStore) {
    let library = try TemporaryLibrary()
    let store = try library.store()
    for number in 1...count {
      try Subscriptions(store: store).add(
        name: "show-\(number)", feedURL: "https://example.com/\(number).xml", title: nil,
        keep: nil)
    }
    return (library, store)
  }

  func testACopyComesBackWithItsValidatorsAndParsesAsTheFeed() throws {
    let (_, store) = try library(subscriptions: 4)
    let kept = KeptFeeds(store: store)
    let validators = Validators(etag: "\"v7\"", lastModified: "Wed, 01 May 2024 10:00:00 GMT")
    let original = document(items: 30)
    try kept.keep(try copy(of: original, validators: validators), subscriptionId: 4)

    let read = try XCTUnwrap(try kept.copy(subscriptionId: 4))
    XCTAssertEqual(read.feed, try copy(of: original, validators: validators))
    XCTAssertLessThan(abs(read.checked.timeIntervalSinceNow), 60)
    let sent = try XCTUnwrap(try FeedRefreshes(store: store).snapshot().keptValidators[4])
    XCTAssertEqual(sent.feedURL, feedURL)
    XCTAssertEqual(sent.validators, validators, "what a sync sends is what the copy came with")
    let feed = try read.feed.feed()
    XCTAssertEqual(feed.podcast.title, "Kept Show")
    XCTAssertEqual(feed.episodes.count, 30)
    XCTAssertEqual(
      feed.episodes.first { $0.guid == "kept-30" }?.enclosure.url,
      "https://cdn.example.com/media/30.mp3", "relative links resolve against the page's URL")
  }

  func testNoCopyIsNoneAndHasNoValidators() throws {
    let (_, store) = try library(subscriptions: 1)
    XCTAssertNil(try KeptFeeds(store: store).copy(subscriptionId: 1))
    XCTAssertNil(try FeedRefreshes(store: store).snapshot().keptValidators[1])
  }

  func testACopyGoesWithItsSubscription() throws {
    let (_, store) = try library(subscriptions: 2)
    let kept = KeptFeeds(store: store)
    for id: Int64 in [1, 2] {
      try kept.keep(try copy(of: document(items: 2), validators: Validators()), subscriptionId: id)
    }
    try Subscriptions(store: store).remove(id: 1)
    XCTAssertNil(try kept.copy(subscriptionId: 1))
    XCTAssertNotNil(try kept.copy(subscriptionId: 2))
  }

  func testACorruptedByteFailsTheChecksumWhenRead() throws {
    let (library, store) = try library(subscriptions: 3)
    let kept = KeptFeeds(store: store)
    try kept.keep(
      try copy(of: document(items: 200), validators: Validators(etag: "\"a\"")), subscriptionId: 3)
    let queue = try DatabaseQueue(path: library.paths.database)
    try queue.write { db in
      var bytes = try XCTUnwrap(
        try Data.fetchOne(db, sql: "SELECT copy FROM keptFeeds WHERE subscriptionId = 3"))
      bytes[bytes.count - 2000] ^= 0x55
      try db.execute(
        sql: "UPDATE keptFeeds SET copy = ? WHERE subscriptionId = 3", arguments: [bytes])
    }
    // The size is right, so only reading the document finds it: the listing then fetches
    // the feed whole (see `SubscribedFeed`).
    let read = try XCTUnwrap(try kept.copy(subscriptionId: 3))
    XCTAssertThrowsError(try read.feed.feed())
  }

  func testTheHeaderKeepsValuesOnOneLine() throws {
    let sneaky = Validators(etag: "\"a\"\nfeed https://evil.example.com/")
    let encoded = try copy(of: document(items: 1), validators: sneaky).encoded()
    let header = try XCTUnwrap(KeptFeed.Header(encoded))
    XCTAssertEqual(header.feedURL, feedURL)
    XCTAssertEqual(header.validators.etag, "\"a\" feed https://evil.example.com/")
  }

  func testBytesCutShortOrOfAnotherFormatAreDamagedNotACopy() throws {
    let whole = try copy(of: document(items: 200), validators: Validators()).encoded()
    XCTAssertThrowsError(try KeptFeed(decoding: whole.prefix(whole.count - 100))) { error in
      guard case .damaged? = error as? KeptFeedError else { return XCTFail("\(error)") }
    }
    XCTAssertThrowsError(try KeptFeed(decoding: Data("<rss/>".utf8)))
  }

  /// A library from before copies were kept in it: the files its copies are in move in the
  /// first time a write opens it, each as old as its file, and the folder goes; until then, a
  /// listing (which opens the library read-only) reads the file.
  func testCopiesKeptAsFilesMoveIntoTheLibrary() throws {
    let (library, store) = try library(subscriptions: 2)
    let paths = library.paths
    // The library as an earlier version left it: no table for the copies.
    try DatabaseQueue(path: paths.database).write { db in
      try db.execute(sql: "DROP TABLE keptFeeds")
      try db.execute(sql: "CREATE INDEX downloads_by_update ON downloads(updatedAt)")
      try db.execute(
        sql:
          "DELETE FROM grdb_migrations WHERE identifier IN ('v9-kept-feeds', 'v9-update-index-dropped')"
      )
    }
    try FileManager.default.createDirectory(
      atPath: paths.keptFeeds, withIntermediateDirectories: true)
    let file = paths.keptFeeds + "/2.feed"
    let copy = try copy(of: document(items: 3), validators: Validators(etag: "\"f\""))
    try copy.encoded().write(to: URL(fileURLWithPath: file))
    let old = Date(timeIntervalSinceNow: -86_400 * 5)
    try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file)
    try Data("x".utf8).write(to: URL(fileURLWithPath: paths.keptFeeds + "/.kept-1-A.tmp"))

    let reading = try XCTUnwrap(try LibraryStore(readingAt: paths))
    let listed = try XCTUnwrap(try KeptFeeds(store: reading).copy(subscriptionId: 2))
    XCTAssertEqual(listed.feed, copy)
    XCTAssertTrue(FileManager.default.fileExists(atPath: file), "a listing writes nothing")
    XCTAssertNil(try KeptFeeds(store: reading).copy(subscriptionId: 1))
    _ = store

    let writing = try LibraryStore(paths: paths)
    let moved = try XCTUnwrap(try KeptFeeds(store: writing).copy(subscriptionId: 2))
    XCTAssertEqual(moved.feed, copy)
    XCTAssertEqual(moved.checked.timeIntervalSince1970, old.timeIntervalSince1970, accuracy: 1)
    XCTAssertFalse(FileManager.default.fileExists(atPath: paths.keptFeeds), "the folder went")
  }

  func testA304MakesTheCopyCurrentWithoutWritingIt() throws {
    let (library, store) = try library(subscriptions: 6)
    let kept = KeptFeeds(store: store)
    let validators = Validators(etag: "\"v3\"", lastModified: nil)
    var subscription = try Subscriptions(store: store).matching("show-6")
    subscription.feedURL = feedURL
    subscription.etag = validators.etag
    subscription.lastChecked = Date(timeIntervalSinceNow: -5 * 86_400)
    XCTAssertEqual(
      try FeedRefreshes(store: store).record([FeedRecord(subscription: subscription)]),
      [.recorded(keys: [], alreadyHad: [])])
    try kept.keep(try copy(of: document(items: 1), validators: validators), subscriptionId: 6)
    let database = try DatabaseQueue(path: library.paths.database)
    try database.write { db in
      try db.execute(
        sql: "UPDATE keptFeeds SET checked = datetime('now', '-5 days') WHERE subscriptionId = 6")
    }
    XCTAssertLessThan(
      try XCTUnwrap(try kept.copy(subscriptionId: 6)).checked, Date(timeIntervalSinceNow: -86_400))
    let row = { try database.read { db in try Row.fetchOne(db, sql: "SELECT * FROM keptFeeds") } }
    let before = try row()

    // A 304 records the subscription's check alone.
    let previous = subscription
    subscription.lastChecked = Date()
    XCTAssertEqual(
      try FeedRefreshes(store: store).record([
        FeedRecord(subscription: subscription, previous: previous)
      ]),
      [.recorded(keys: [], alreadyHad: [])])
    XCTAssertLessThan(
      abs(try XCTUnwrap(try kept.copy(subscriptionId: 6)).checked.timeIntervalSinceNow), 60)
    XCTAssertEqual(try row(), before, "the copy's row is not written")

    // Checked since with other validators (a whole feed whose copy could not be kept): the
    // copy is only as current as it was.
    subscription.etag = "\"v4\""
    XCTAssertEqual(
      try FeedRefreshes(store: store).record([
        FeedRecord(subscription: subscription, previous: previous)
      ]),
      [.recorded(keys: [], alreadyHad: [])])
    XCTAssertLessThan(
      try XCTUnwrap(try kept.copy(subscriptionId: 6)).checked, Date(timeIntervalSinceNow: -86_400))
  }

}
