import Basics
import XCTest

final class SmokeTests: XCTestCase {
  func testVersionIsSemantic() {
    XCTAssertEqual(Release.version.split(separator: ".").count, 3)
  }
}
