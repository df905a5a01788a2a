import Downloads
import XCTest

/// A download's per-host share counts against the server that sends the bytes, not the
/// tracking services in front of it.
final class ServingHostTests: XCTestCase {
  private func host(_ url: String) -> String {
    DownloadJob(
      url: url, title: nil, podcastTitle: nil, relativePath: "a.mp3", mimeType: nil,
      declaredLength: nil
    ).servingHost
  }

  func testTrackingPrefixesCountAgainstTheHostBehindThem() {
    XCTAssertEqual(
      host("https://dts.podtrac.com/redirect.mp3/cdn.example.com/show/1.mp3?x=1"),
      "cdn.example.com")
    XCTAssertEqual(
      host(
        "https://dts.podtrac.com/redirect.mp3/chtbl.com/track/AB12/op3.dev/e/media.example.org/2.mp3"
      ),
      "media.example.org")
    XCTAssertEqual(host("https://op3.dev/e/https://Audio.Example.NET/3.mp3"), "audio.example.net")
  }

  func testAPlainURLCountsAgainstItsOwnServer() {
    XCTAssertEqual(host("https://cdn.example.com/show/1.mp3"), "cdn.example.com")
    XCTAssertEqual(host("http://127.0.0.1:8080/a.mp3"), "127.0.0.1:8080")
    XCTAssertEqual(
      host("https://user:secret@private.example.com/feed/1.mp3"), "private.example.com")
    // Two shows behind one tracker no longer share its two slots.
    XCTAssertNotEqual(
      host("https://dts.podtrac.com/redirect.mp3/a.example.com/1.mp3"),
      host("https://dts.podtrac.com/redirect.mp3/b.example.com/1.mp3"))
  }
}
