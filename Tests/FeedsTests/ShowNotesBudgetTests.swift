import Feeds
import Foundation
import XCTest

/// A paged feed's show notes past the in-memory budget go to one spool file, unchanged.
final class ShowNotesBudgetTests: XCTestCase {
  func testNotesPastTheLimitMoveToTheSpoolAndReadBackTheSame() {
    let size = FeedBuilder.inlineNotesLimit / 3 + 1
    var budget = ShowNotesBudget()
    var episodes = (0..<4).map { number in
      Episode(
        title: "E\(number)", enclosure: Enclosure(url: "https://example.com/\(number).mp3"),
        description: String(repeating: Character(String(number)), count: size))
    }
    let before = episodes.map(\.description)
    for index in episodes.indices { budget.account(&episodes[index]) }
    XCTAssertEqual(episodes.map { $0.showNotes?.inlineCount != nil }, [true, true, false, false])
    XCTAssertEqual(episodes.map(\.description), before)
  }
}
