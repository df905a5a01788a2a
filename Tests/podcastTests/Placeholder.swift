import XCTest


final class PlaceholderTests: XCTestCase {
  func testVersionIsSemantic() {
    XCTAssertEqual("a.b.c".split(separator: ".").count, 3)
  }
}
