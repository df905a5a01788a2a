import Fetching
import XCTest

final class HTMLSnifferTests: XCTestCase {
  func testHTMLSniffing() {
    for page in ["<!DOCTYPE html><html>", "\u{FEFF}  <html lang=en>", "\n<HEAD>"] {
      XCTAssertTrue(Array(page.utf8).withUnsafeBytes(HTMLSniffer.looksLikeHTML), page)
    }
    XCTAssertFalse(Array("ID3\u{3}\u{0}".utf8).withUnsafeBytes(HTMLSniffer.looksLikeHTML))
  }
}
