import Model
import XCTest

final class FirstSyncPolicyTests: XCTestCase {
  func testFirstSyncPolicies() throws {
    XCTAssertEqual(try FirstSyncPolicy(parsing: "latest").count, 1)
    XCTAssertEqual(try FirstSyncPolicy(parsing: "5").count, 5)
    XCTAssertNil(try FirstSyncPolicy(parsing: "all").count)
    XCTAssertEqual(try FirstSyncPolicy(parsing: "none").count, 0)
    XCTAssertEqual(try FirstSyncPolicy(parsing: "0"), FirstSyncPolicy.none)
    XCTAssertThrowsError(try FirstSyncPolicy(parsing: "-2"))
    XCTAssertThrowsError(try FirstSyncPolicy(parsing: "some"))
  }
}
