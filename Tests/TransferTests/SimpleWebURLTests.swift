import Foundation
import XCTest

@testable import Transfer

/// The shortcut past Foundation for the plain feed URLs a sync checks by the thousand: it takes
/// the shapes real feeds have, and whatever it takes Foundation reads alike (scheme, host,
/// port); whatever else it leaves to Foundation.
final class SimpleWebURLTests: XCTestCase {
  /// Foundation's reading of `url`: the scheme and host lowercased, and the port.
  private func foundation(_ url: String) -> (scheme: String, host: String, port: Int?)? {
    guard let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host
    else { return nil }
    return (scheme.lowercased(), host.lowercased(), parts.port)
  }

  func testTheUsualFeedURLsAreReadAsFoundationReadsThem() throws {
    for url in [
      "https://feeds.simplecast.com/Sl5CSM3S",
      "http://127.0.0.1:18080/s/feed-000001.xml",
      "https://www.omnycontent.com/d/playlist/e73c998e-6e60-432f-8610-ae210140c5b1/A91018A4-EA4F-4130-BF55-AE270180C327/44710ECC-10BB-48D1-93C7-AE270180C33E/podcast.rss",
      "https://anchor.fm/s/1e2fbb4/podcast/rss",
      "https://feeds.megaphone.fm/darknetdiaries?format=rss&limit=50",
      "https://example.com/feed.php?id=12&amp=1;x=%20y",
      "HTTPS://Feeds.Example.COM:8443/Show/",
      "https://dts.podtrac.com/redirect.mp3/chrt.fm/track/G481GD/traffic.megaphone.fm/GLT1158789509.mp3?updated=1606224428",
      "http://a.example",
      "https://a.example?only=query",
    ] {
      let simple = try XCTUnwrap(SimpleWebURL(url), url)
      let expected = try XCTUnwrap(foundation(url), url)
      XCTAssertEqual(simple.scheme, expected.scheme, url)
      XCTAssertEqual(simple.host, expected.host, url)
      XCTAssertEqual(simple.port, expected.port, url)
    }
  }

  /// The key a server's share is counted under, made straight from the bytes: the host
  /// lowercased and the port as a number (leading zeros gone), as Foundation reads them.
  func testTheServerKeyIsTheHostAndPortFoundationReads() throws {
    for url in [
      "https://feeds.simplecast.com/Sl5CSM3S", "http://127.0.0.1:18080/s/feed-000001.xml",
      "HTTPS://Feeds.Example.COM:8443/Show/", "http://x.example:0080/feed", "http://x.example:0/",
      "http://x.example:7/", "http://x.example:65535/", "http://x.example:00009", "http://A.B",
      "https://media.example:443?x=1",
    ] {
      let expected = try XCTUnwrap(foundation(url), url)
      let key = try XCTUnwrap(SimpleWebURL.serverKey(of: url), url)
      XCTAssertEqual(key, expected.port.map { "\(expected.host):\($0)" } ?? expected.host, url)
      XCTAssertTrue(SimpleWebURL.isSimple(url), url)
    }
    for url in ["https://user:pw@example.com/x", "https://example.com:99999/", "ftp://a.example/"] {
      XCTAssertNil(SimpleWebURL.serverKey(of: url), url)
      XCTAssertFalse(SimpleWebURL.isSimple(url), url)
    }
  }

  /// Shapes it must leave to Foundation (which may take them or not): whatever it does take of
  /// these, Foundation reads the same.
  func testWhatItDoesNotKnowItLeavesToFoundation() {
    let left = [
      "https://user:secret@feeds.example.com/private.xml", "https://example.com/feed#latest",
      "https://[::1]:8080/feed", "https://bücher.example/feed", "https://example.com/a b",
      "https://example.com/%zz", "https://example.com/%4", "https://example.com:99999/feed",
      "https://example.com:/feed", "https://example.com:80a/feed", "ftp://example.com/feed",
      "feed://example.com/rss", "http:/example.com/feed", "https://", "https:///feed",
      "https://example.com/<script>", "https://example.com/a\\b", "https://example.com/\"x\"",
      "https://example.com/{id}", "https://example.com/a|b", "https://example.com/\u{7F}",
      "https://exa_mple.com/feed", " https://example.com/feed", "https://example.com/feed ",
      "https://example.com\n/feed", "relative/feed.xml", "",
    ]
    for url in left {
      XCTAssertNil(SimpleWebURL(url), url)
    }
    for url in left + [
      "https://example.com/a?b=c/d?e", "http://x.example:0/", "http://-x-.example",
    ] {
      guard let simple = SimpleWebURL(url) else { continue }
      let expected = foundation(url)
      XCTAssertEqual(simple.host, expected?.host, url)
      XCTAssertEqual(simple.port, expected?.port, url)
    }
  }

  /// The policy and the per-host shares give the same answers with and without the shortcut.
  func testThePolicyAndTheServerKeyAgreeWithFoundation() {
    for url in [
      "HTTPS://Feeds.Example.COM:8443/Show/", "https://user:pw@example.com/x",
      "ftp://example.com/x", "https://example.com/a b", "http://127.0.0.1:9/x",
    ] {
      XCTAssertEqual(
        URLPolicy.isAllowed(url),
        foundation(url).map { ["http", "https"].contains($0.scheme) && !$0.host.isEmpty } ?? false,
        url)
      XCTAssertEqual(
        MultiplexingServers.host(of: url), MultiplexingServers.host(of: URL(string: url)), url)
    }
  }
}
