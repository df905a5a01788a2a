import Selection
import XCTest

final class EpisodeSelectionTests: XCTestCase {
  func testSinglesRangesAndListsInTheOrderGiven() throws {
    XCTAssertEqual(try EpisodeSelection(parsing: ["3"]).indexes, [3])
    XCTAssertEqual(try EpisodeSelection(parsing: ["2-5"]).indexes, [2, 3, 4, 5])
    XCTAssertEqual(try EpisodeSelection(parsing: ["1,4,9"]).indexes, [1, 4, 9])
    XCTAssertEqual(try EpisodeSelection(parsing: ["9", "1-2,9", "2"]).indexes, [9, 1, 2])
  }

  func testMalformedSelectionsAreRejected() {
    for word in ["0", "-1", "a", "3-1", "1,,2", "2-", "1.5", ""] {
      XCTAssertThrowsError(try EpisodeSelection(parsing: [word]), word)
    }
  }

  func testIndexesBeyondTheFeedAreRejected() throws {
    let selection = try EpisodeSelection(parsing: ["2-4"])
    XCTAssertNoThrow(try selection.validate(episodeCount: 4))
    XCTAssertThrowsError(try selection.validate(episodeCount: 3)) { error in
      XCTAssertEqual(error as? SelectionError, .outOfRange(4, count: 3))
    }
  }
}
