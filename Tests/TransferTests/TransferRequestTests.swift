import XCTest

@testable import Transfer

/// What a request asks of libcurl, read from its URL.
final class TransferRequestTests: XCTestCase {
  /// Only an https request waits for a connection its host is setting up (HTTP/2's streams
  /// share one), whatever the case of its scheme; the kept handles are sorted by it too.
  func testOnlyHTTPSRequestsWaitForTheirHostsConnection() {
    for (url, waits) in [
      ("https://feeds.example.com/a.xml", true), ("HTTPS://Feeds.Example.com/a.xml", true),
      ("hTtPs://x.example", true), ("http://feeds.example.com/a.xml", false),
      ("https:", false), ("httpx://x.example", false), ("ftp://x.example/a", false),
    ] {
      let request = TransferRequest(url: url, options: TransferOptions())
      XCTAssertEqual(request.waitsForPipe, waits, url)
      XCTAssertEqual(request.handleProfile?.waitsForPipe, waits, url)
    }
  }
}
