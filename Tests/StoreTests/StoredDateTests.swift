import Foundation
import GRDB
import Model
import StoreTestSupport
import XCTest

@testable import Store

/// Dates the library binds by hand must read back as GRDB's own: the same text, and the same
/// date (to the millisecond) when decoded.
final class StoredDateTests: XCTestCase {
  func testTheTextIsWhatGRDBWritesForTheSameDate() throws {
    let dates = [
      Date(timeIntervalSince1970: 0),
      Date(timeIntervalSince1970: 1_704_067_200.123_9),  // milliseconds rounded
      Date(timeIntervalSince1970: 1_704_067_200.999_7),  // rounded into the next second
      Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29
      Date(timeIntervalSince1970: -1.5),  // before 1970
      Date(timeIntervalSince1970: -2_208_988_800),  // 1900-01-01
      Date(timeIntervalSince1970: 4_102_444_799.999),  // 2099-12-31 23:59:59.999
      Date(timeIntervalSinceReferenceDate: 786_000_000.5),
    ]
    for date in dates {
      let ours = try XCTUnwrap(StoredDate.text(date), "\(date)")
      XCTAssertEqual(ours, String.fromDatabaseValue(date.databaseValue), "\(date)")
      let read = try XCTUnwrap(Date.fromDatabaseValue(StoredDate(date).databaseValue))
      XCTAssertEqual(read.timeIntervalSince1970, date.timeIntervalSince1970, accuracy: 0.001)
    }
  }

  /// The hot reads parse the text by hand: to the same date GRDB reads from it, and other
  /// forms (SQLite's own `datetime()`, no milliseconds; years before 1583, which Foundation
  /// counts in the Julian calendar) are left to GRDB.
  func testTheParsedTextIsTheDateGRDBReads() throws {
    let texts = [
      "1970-01-01 00:00:00.000", "2024-01-01 00:00:00.124", "2000-02-29 12:34:56.789",
      "1969-12-31 23:59:58.500", "1900-01-01 00:00:00.000", "2099-12-31 23:59:59.999",
    ]
    for text in texts {
      let ours = try XCTUnwrap(
        Array(text.utf8).withUnsafeBufferPointer { StoredDate.date($0) }, text)
      let grdb = try XCTUnwrap(Date.fromDatabaseValue(text.databaseValue), text)
      XCTAssertEqual(
        ours.timeIntervalSince1970, grdb.timeIntervalSince1970, accuracy: 0.000_5, text)
      XCTAssertEqual(StoredDate.text(ours), text)
    }
    for other in [
      "2024-01-01 00:00:00", "2024-01-01T00:00:00.000Z", "2024-13-01 00:00:00.000",
      "0001-01-01 00:00:00.000",
    ] {
      XCTAssertNil(Array(other.utf8).withUnsafeBufferPointer { StoredDate.date($0) }, other)
    }
  }

  func testDatesOutsideFourDigitYearsAreLeftToGRDB() {
    let far = Date(timeIntervalSince1970: 300_000_000_000)
    XCTAssertNil(StoredDate.text(far))
    XCTAssertEqual(StoredDate(far).databaseValue, far.databaseValue)
  }

  func testAnInsertedEpisodeReadsBackWithItsDates() throws {
    let library = try TemporaryLibrary()
    let store = try library.store()
    let id = try XCTUnwrap(
      Subscriptions(store: store).add(
        name: "show", feedURL: "https://f.example/rss", title: nil, keep: nil
      )
      .id)
    let published = Date(timeIntervalSince1970: 1_700_000_000.25)
    let seen = Date(timeIntervalSince1970: 1_700_000_100.5)
    let added = try EpisodeLog(store: store).record(
      subscriptionId: id,
      episodes: [
        SeenEpisode(
          guid: "g1", enclosureURL: "https://example.com/1.mp3", title: "One",
          published: published, firstSeen: seen)
      ])
    XCTAssertNotNil(added.first?.id)
    let stored = try XCTUnwrap(EpisodeLog(store: store).episodes(subscriptionId: id).first)
    XCTAssertEqual(stored.id, added.first?.id)
    XCTAssertEqual(stored.published, published)
    XCTAssertEqual(stored.firstSeen, seen)
    // Seen again: ignored, nothing added.
    XCTAssertEqual(
      try EpisodeLog(store: store).record(subscriptionId: id, episodes: [stored]).count, 0)
  }
}
