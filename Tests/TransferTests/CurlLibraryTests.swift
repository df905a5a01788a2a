import Transfer
import XCTest

/// libcurl is opened on the first transfer, not linked: a machine without it, or with one too
/// old, gets a reason that names the library instead of a crash.
final class CurlLibraryTests: XCTestCase {
  func testTheSystemLibcurlHasEveryFunctionTheTransfersUse() {
    XCTAssertNil(CurlLibrary.problem(with: "libcurl.so.4"))
  }

  func testAMissingLibraryIsNamedInTheReason() throws {
    let reason = try XCTUnwrap(CurlLibrary.problem(with: "libpodcast-no-such-curl.so.4"))
    XCTAssertTrue(reason.contains("libpodcast-no-such-curl.so.4"), reason)
  }

  func testALibraryLackingAFunctionIsRefusedWhole() throws {
    let reason = try XCTUnwrap(CurlLibrary.problem(with: "libz.so.1"))
    XCTAssertEqual(reason, "libz.so.1 has no curl_global_init (libcurl 7.68 or later is needed)")
  }
}
