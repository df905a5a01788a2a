import Foundation
import XCTest

@testable import Transfer

final class HTTPDateTests: XCTestCase {
  private let expected = Date(timeIntervalSince1970: 784_111_777)  // 1994-11-06T08:49:37Z

  /// RFC 9110 section 5.6.7: the preferred form and the two obsolete ones a recipient reads.
  func testReadsTheThreeHTTPDateForms() {
    XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), expected)
    XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), expected)
    XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), expected)
  }

  func testRejectsWhatIsNotADate() {
    for text in [
      "", "soon", "120", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
    ] {
      XCTAssertNil(HTTPDate.parse(text), text)
    }
  }

  /// `Retry-After` as a date becomes the seconds from now (never negative), as seconds it stays.
  func testRetryAfterReadsSecondsAndDates() {
    func head(_ value: String) -> ResponseHead {
      ResponseHead(status: 503, url: "http://x", headers: ["retry-after": value], redirects: [])
    }
    XCTAssertEqual(head("120").retryAfter, 120)
    XCTAssertEqual(head("Sun, 06 Nov 1994 08:49:37 GMT").retryAfter, 0)
    let future = Date().addingTimeInterval(3_600)
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    let wait = head(formatter.string(from: future)).retryAfter ?? -1
    XCTAssertTrue((3_590...3_601).contains(wait), "\(wait)")
    XCTAssertNil(head("later").retryAfter)
  }
}
