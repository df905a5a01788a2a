import Foundation
import Tags
import XCTest

/// Podcasting 2.0 chapters JSON as publishers write it, hostile values included.
final class TagChapterMarkTests: XCTestCase {
  private func parse(_ json: String, duration: Int? = nil) -> [ChapterMark] {
    ChapterMark.marks(inChapters: Data(json.utf8), duration: duration)
  }

  func testEndTimesComeFromTheFileElseTheNextStartElseTheDuration() {
    let marks = parse(
      """
      {"version":"1.2.0","chapters":[
        {"startTime":0,"title":"Intro","endTime":12.5},
        {"startTime":12.5,"title":"News"},
        {"startTime":90.25,"title":"Outro","img":"https://example.com/x.jpg"}]}
      """, duration: 120)
    XCTAssertEqual(
      marks,
      [
        ChapterMark(start: 0, end: 12_500, title: "Intro"),
        ChapterMark(start: 12_500, end: 90_250, title: "News"),
        ChapterMark(start: 90_250, end: 120_000, title: "Outro"),
      ])
  }

  func testWithoutADurationTheLastChapterRunsToTheEndOfTheAudio() {
    let marks = parse(#"{"chapters":[{"startTime":5,"title":"Only"}]}"#)
    XCTAssertEqual(marks, [ChapterMark(start: 5000, end: nil, title: "Only")])
  }

  func testHiddenChaptersAreLeftOutAndTheRestAreSortedByTime() {
    let marks = parse(
      """
      {"chapters":[{"startTime":60,"title":"B"},{"startTime":30,"title":"art","toc":false},
      {"startTime":0,"title":"A"}]}
      """, duration: 100)
    XCTAssertEqual(marks.map(\.title), ["A", "B"])
    XCTAssertEqual(marks.map(\.end), [60_000, 100_000])
  }

  func testTimesNoTagCanHoldAreDroppedNotTrapped() {
    let marks = parse(
      """
      {"chapters":[{"startTime":-1,"title":"negative"},{"startTime":1e300,"title":"huge"},
      {"startTime":3,"title":"fine","endTime":1e300},{"startTime":4,"endTime":2}]}
      """)
    XCTAssertEqual(
      marks,
      [ChapterMark(start: 3000, end: 4000, title: "fine"), ChapterMark(start: 4000, title: "")])
  }

  /// The file is read as the index and the pages read it (`ChaptersReader`): what is not
  /// chapters gives none (the side-file step reports it), where the tags' own strict reader
  /// gave up on the whole file for one time written as a string, and titles are text.
  func testNotChaptersJSONGivesNoneAndTimesAsStringsAreRead() {
    XCTAssertEqual(parse("<html>"), [])
    XCTAssertEqual(parse(#"{"version":"1.2.0"}"#), [])
    XCTAssertEqual(parse(#"{"chapters":[{"startTime":"zero","title":"?"}]}"#), [])
    XCTAssertEqual(
      parse(
        #"{"chapters":[{"startTime":"12.5","title":"Q&amp;A  <b>live</b>"},{"startTime":0,"title":"Intro"}]}"#
      ),
      [
        ChapterMark(start: 0, end: 12_500, title: "Intro"),
        ChapterMark(start: 12_500, title: "Q&A live"),
      ])
  }
}
