import Model
import XCTest

final class SubscriptionNameTests: XCTestCase {
  func testNamesAreGuessedFromTitlesAndURLs() {
    XCTAssertEqual(
      SubscriptionName.slug("Dan Carlin's Hardcore History"), "dan-carlin-s-hardcore-history")
    XCTAssertEqual(SubscriptionName.slug("Café Über"), "cafe-uber")
    XCTAssertEqual(SubscriptionName.slug("1984"), "podcast-1984")
    XCTAssertEqual(SubscriptionName.slug("???"), "podcast")
    XCTAssertEqual(
      SubscriptionName.guess(fromFeed: "https://feeds.example.com/hardcore-history/rss.xml"),
      "hardcore-history")
    XCTAssertEqual(SubscriptionName.guess(fromFeed: "https://feeds.megaphone.fm/"), "megaphone")
    XCTAssertEqual(SubscriptionName.guess(fromFeed: "/home/me/feeds/Tech Talk.xml"), "tech-talk")
  }
}
