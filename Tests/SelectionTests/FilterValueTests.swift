import Feeds
import Foundation
import Selection
import XCTest

/// The words filters and settings take: durations, dates and ages, rates, first-sync policies.
final class FilterValueTests: XCTestCase {
  func testDurations() throws {
    XCTAssertEqual(try DurationText.seconds("10m", setting: "min-duration"), 600)
    XCTAssertEqual(try DurationText.seconds("1h30m", setting: "min-duration"), 5_400)
    XCTAssertEqual(try DurationText.seconds("45s", setting: "min-duration"), 45)
    XCTAssertEqual(try DurationText.seconds("1:30:00", setting: "min-duration"), 5_400)
    XCTAssertEqual(try DurationText.seconds("90:00", setting: "min-duration"), 5_400)
    for bad in ["10", "", "m", "1h30", "ten", "1:x", "-5m"] {
      XCTAssertThrowsError(try DurationText.seconds(bad, setting: "min-duration"), bad)
    }
    XCTAssertEqual(DurationText.text(5_400), "1h30m")
    XCTAssertEqual(try DurationText.seconds(DurationText.text(3_725), setting: "x"), 3_725)
  }

  func testDatesAndAges() throws {
    let now = Date(timeIntervalSince1970: 1_715_335_200)
    XCTAssertEqual(
      try DateBound.resolve("2024-05-01", setting: "since", now: now),
      Date(timeIntervalSince1970: 1_714_521_600))
    XCTAssertEqual(
      try DateBound.resolve("30d", setting: "since", now: now),
      now.addingTimeInterval(-30 * 86_400))
    XCTAssertEqual(
      try DateBound.resolve("2w", setting: "since", now: now),
      now.addingTimeInterval(-14 * 86_400))
    XCTAssertEqual(
      try DateBound.resolve("2024-05-01T10:00:00Z", setting: "since", now: now),
      Date(timeIntervalSince1970: 1_714_557_600))
    for bad in ["2024-13-01", "2024-02-30", "yesterday", "30", "d", "-3d"] {
      XCTAssertThrowsError(try DateBound.resolve(bad, setting: "since", now: now), bad)
    }
  }

  func testAPredicateNeedsWhatItTests() throws {
    let undated = Episode(title: "Full: x", enclosure: Enclosure(url: "https://a.example/1.mp3"))
    XCTAssertFalse(try EpisodeFilter(since: "2020-01-01").predicate().accepts(undated))
    XCTAssertFalse(try EpisodeFilter(minDuration: 60).predicate().accepts(undated))
    XCTAssertTrue(try EpisodeFilter(match: "^FULL").predicate().accepts(undated))
    XCTAssertTrue(try EpisodeFilter(type: "full").predicate().accepts(undated), "no type is full")
    XCTAssertFalse(try EpisodeFilter(type: "bonus").predicate().accepts(undated))
  }
}
