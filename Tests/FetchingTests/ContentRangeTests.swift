import Fetching
import XCTest

final class ContentRangeTests: XCTestCase {
  func testContentRangeParsing() {
    XCTAssertEqual(ContentRange("bytes 100-199/1000"), ContentRange("bytes 100-199/1000"))
    XCTAssertEqual(ContentRange("bytes 100-199/1000")?.start, 100)
    XCTAssertEqual(ContentRange("bytes 100-199/1000")?.total, 1000)
    XCTAssertNil(ContentRange("bytes 100-199/*")?.total)
    XCTAssertNil(ContentRange("bytes */1000"))
    XCTAssertNil(ContentRange("items 1-2/3"))
  }
}
