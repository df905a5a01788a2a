import Transfer
import XCTest

/// Response heads as libcurl hands them over, line by line with their CRLF: what the ETag,
/// Last-Modified and redirect handling read from them.
final class HeaderLineTests: XCTestCase {
  private func read(_ text: String) -> HeaderLine {
    Array(text.utf8).withUnsafeBytes { HeaderLine($0) }
  }

  func testAStatusLineGivesItsCode() {
    XCTAssertEqual(read("HTTP/1.1 301 Moved Permanently\r\n"), .status(301))
    XCTAssertEqual(read("HTTP/2 200\r\n"), .status(200))
    XCTAssertEqual(read("HTTP/1.0 304\r\n"), .status(304))
  }

  /// HTTP/2 and HTTP/3 heads say the server multiplexes: more transfers to it are streams on
  /// one connection, so the download slots give it a larger share.
  func testAnHTTP2OrHTTP3StatusLineIsMultiplexed() {
    let multiplexed = { (text: String) in
      Array(text.utf8).withUnsafeBytes { HeaderLine.isMultiplexedStatus($0) }
    }
    XCTAssertTrue(multiplexed("HTTP/2 302\r\n"))
    XCTAssertTrue(multiplexed("HTTP/3 200\r\n"))
    XCTAssertFalse(multiplexed("HTTP/1.1 200 OK\r\n"))
    XCTAssertFalse(multiplexed("HTTP/1.0 200 OK\r\n"))
    XCTAssertFalse(multiplexed("X-Proto: HTTP/2\r\n"))
  }

  func testAStatusLineWithoutANumberGivesZero() {
    XCTAssertEqual(read("HTTP/1.1\r\n"), .status(0))
    XCTAssertEqual(read("HTTP/1.1 abc OK\r\n"), .status(0))
    XCTAssertEqual(read("HTTP/1.1 99999999999999999999999 OK\r\n"), .status(0))
  }

  /// Names are case-insensitive; values keep their case and inner spaces, and lose the blanks
  /// around them (an ETag compared byte for byte must not carry the CR).
  func testAFieldIsNamedInLowerCaseAndTrimmed() {
    XCTAssertEqual(read("ETag: \"5f-abc\"\r\n"), .field(name: "etag", value: "\"5f-abc\""))
    XCTAssertEqual(
      read("Last-Modified:\tMon, 01 Jan 2024 00:00:00 GMT \r\n"),
      .field(name: "last-modified", value: "Mon, 01 Jan 2024 00:00:00 GMT"))
    XCTAssertEqual(
      read("LOCATION: http://127.0.0.1:8080/a:b?c=1\r\n"),
      .field(name: "location", value: "http://127.0.0.1:8080/a:b?c=1"))
    XCTAssertEqual(read("X-Empty:\r\n"), .field(name: "x-empty", value: ""))
  }

  func testTheBlankLineEndsTheHead() {
    XCTAssertEqual(read("\r\n"), .end)
    XCTAssertEqual(read("\n"), .end)
    XCTAssertEqual(read(" continued value\r\n"), .other)
  }

  /// Bytes that are not UTF-8 (obs-text) do not stop the head being read.
  func testAValueThatIsNotUTF8IsStillRead() {
    let line: [UInt8] = Array("X-Title: caf".utf8) + [0xE9] + Array("\r\n".utf8)
    let read = line.withUnsafeBytes { HeaderLine($0) }
    XCTAssertEqual(read, .field(name: "x-title", value: "caf\u{FFFD}"))
  }
}
