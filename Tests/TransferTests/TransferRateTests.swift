import Transfer
import XCTest

/// A rate limit in the words curl reads (`500k`, `2M`), and written back.
final class TransferRateTests: XCTestCase {
  func testRatesReadAsCurlDoes() throws {
    XCTAssertEqual(try TransferRate.bytesPerSecond("500k"), 512_000)
    XCTAssertEqual(try TransferRate.bytesPerSecond("2M"), 2_097_152)
    XCTAssertEqual(try TransferRate.bytesPerSecond("1.5m"), 1_572_864)
    XCTAssertEqual(try TransferRate.bytesPerSecond("100000"), 100_000)
    for bad in ["", "k", "fast", "-1k", "0", "1e3", "nan"] {
      XCTAssertThrowsError(try TransferRate.bytesPerSecond(bad), bad)
    }
    XCTAssertEqual(TransferRate.text(512_000), "500k")
    XCTAssertEqual(TransferRate.text(1_000), "1000")
  }
}
