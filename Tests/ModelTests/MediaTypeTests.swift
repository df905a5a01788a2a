import Model
import XCTest

/// What a server's Content-Type says of a body: an HTML page where an episode was expected.
final class MediaTypeTests: XCTestCase {
  func testHTMLIsFoundInAnyCaseAndWithParameters() {
    for type in ["text/html", "TEXT/HTML; charset=UTF-8", "application/xhtml+xml", "text/hhtml"] {
      XCTAssertTrue(MediaType.isHTML(type), type)
    }
    for type in ["audio/mpeg", "text/htm", "text/h-t-m-l", "application/octet-stream", ""] {
      XCTAssertFalse(MediaType.isHTML(type), type)
    }
    XCTAssertFalse(MediaType.isHTML(nil))
  }
}
