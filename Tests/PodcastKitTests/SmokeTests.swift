import XCTest

@testable import PodcastKit

final class SmokeTests: XCTestCase {
  func testVersionIsSemantic() {
    XCTAssertEqual(PodcastKit.version.split(separator: ".").count, 3)
  }
}
