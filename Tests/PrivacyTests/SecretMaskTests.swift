import Privacy
import XCTest

final class SecretMaskTests: XCTestCase {
  func testSecretQueryValuesAreMaskedAndTheRestStays() {
    XCTAssertEqual(
      SecretMask.masked("https://www.patreon.com/rss/show?auth=3f9cAbC&show=12"),
      "https://www.patreon.com/rss/show?auth=…&show=12")
    XCTAssertEqual(
      SecretMask.masked(
        "fetch https://c10.example.com/1.mp3?token-time=1700000000&token-hash=a%2Fb%3D#t=1 failed"),
      "fetch https://c10.example.com/1.mp3?token-time=1700000000&token-hash=…#t=1 failed")
    XCTAssertEqual(
      SecretMask.masked("\"https://a.example/x?Signature=zz&Key=kk&keyword=cats\""),
      "\"https://a.example/x?Signature=…&Key=…&keyword=cats\"")
  }

  func testUserinfoLosesItsPassword() {
    XCTAssertEqual(
      SecretMask.masked("podcast: https://ada:s3cr3t@feeds.example.com/p.xml: HTTP 401"),
      "podcast: https://ada:…@feeds.example.com/p.xml: HTTP 401")
    XCTAssertEqual(
      SecretMask.masked("https://TOKEN123@feeds.example.com/p.xml"),
      "https://…@feeds.example.com/p.xml")
    XCTAssertEqual(
      SecretMask.masked("mail me: ada@example.com, see https://example.com/a?b=c"),
      "mail me: ada@example.com, see https://example.com/a?b=c")
  }

  func testSecretsAreFoundWhereverTheyStandInText() {
    // An address before the URL does not hide the URL's userinfo.
    XCTAssertEqual(
      SecretMask.masked("from ada@example.com: https://u:pw@feeds.example.com/p.xml"),
      "from ada@example.com: https://u:…@feeds.example.com/p.xml")
    // Names in any case, among non-ASCII text.
    XCTAssertEqual(
      SecretMask.masked("Épisode https://a.example/x?API_KEY=k1&épisode=2"),
      "Épisode https://a.example/x?API_KEY=…&épisode=2")
    XCTAssertTrue(SecretMask.hasSecret("https://a.example/x?lang=fr&Token=t"))
  }

  func testTextWithoutSecretsIsUnchanged() {
    for text in ["", "Episode 3: Q&A", "https://example.com/a.mp3?aid=rss_feed&feed=x", "x=y"] {
      XCTAssertEqual(SecretMask.masked(text), text)
      XCTAssertFalse(SecretMask.hasSecret(text))
    }
    XCTAssertTrue(SecretMask.hasSecret("https://a:b@c.example/"))
  }
}
