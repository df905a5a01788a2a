import Feeds
import FeedsTestSupport
import Foundation
import XCTest

/// Dates, durations and sizes as feeds really write them.
final class FeedValueTests: XCTestCase {
  func testDatesInEveryCommonVariantGiveTheRightUTCInstant() {
    let cases: [(String, String)] = [
      ("Mon, 06 Jan 2020 10:00:00 +0000", "2020-01-06T10:00:00Z"),
      ("Mon, 06 Jan 2020 10:00:00 GMT", "2020-01-06T10:00:00Z"),
      ("06 Jan 2020 10:00:00 GMT", "2020-01-06T10:00:00Z"),  // no weekday
      ("Fri, 06 Jan 2020 10:00:00 UT", "2020-01-06T10:00:00Z"),  // wrong weekday
      ("Mon, 6 Jan 20 10:00:00 Z", "2020-01-06T10:00:00Z"),  // 2-digit year
      ("Wed, 1 Dec 99 10:00:00 GMT", "1999-12-01T10:00:00Z"),
      ("Mon, 06 Jan 2020 05:00:00 EST", "2020-01-06T10:00:00Z"),
      ("Mon, 06 Jul 2020 03:00:00 PDT", "2020-07-06T10:00:00Z"),
      ("Mon, 06 Jan 2020 11:30:00 +01:30", "2020-01-06T10:00:00Z"),
      ("Mon, 06 Jan 2020 10:00:00", "2020-01-06T10:00:00Z"),  // no zone: UTC
      ("Mon, 06 Jan 2020", "2020-01-06T00:00:00Z"),
      ("  Monday,  06   January 2020 10:00:00 +0000 ", "2020-01-06T10:00:00Z"),
      ("mon, 06 jan 2020 10:00:00 gmt", "2020-01-06T10:00:00Z"),
      ("Wed,3 Apr 2013 0:01:00 GMT", "2013-04-03T00:01:00Z"),
      ("Fri, 14 Aug 2010 9:4:38 +0900", "2010-08-14T00:04:38Z"),
      ("2020-01-06T10:00:00Z", "2020-01-06T10:00:00Z"),
      ("2020-01-06T12:00:00+02:00", "2020-01-06T10:00:00Z"),
      ("2020-01-06 10:00:00", "2020-01-06T10:00:00Z"),
      ("2020-01-06", "2020-01-06T00:00:00Z"),
      ("Fri Sept 2 2016 11:05:33 GMT-0500 (Central Daylight Time)", "2016-09-02T16:05:33Z"),
      ("July 8, 2013 10:00 AM EDT", "2013-07-08T14:00:00Z"),
      ("01/15/2017", "2017-01-15T00:00:00Z"),
      ("15.01.2017", "2017-01-15T00:00:00Z"),
    ]
    for (text, iso) in cases {
      XCTAssertEqual(FeedDate.parse(text), FeedTestSupport.utc(iso), text)
    }
  }

  func testMonthNamesInOtherLanguagesAndAnyCaseAndTwelveOClock() {
    let cases: [(String, String)] = [
      ("5 juin 2019 08:00:00 +0200", "2019-06-05T06:00:00Z"),
      ("5 JUIL 2019 08:00 +0000", "2019-07-05T08:00:00Z"),
      ("12 févr. 2021 10:00:00 GMT", "2021-02-12T10:00:00Z"),
      ("12 DÉC 2021 10:00:00 GMT", "2021-12-12T10:00:00Z"),
      ("3 Mrz 2021 12:00 AM", "2021-03-03T00:00:00Z"),
      ("3 mar 2021 12:30 pm", "2021-03-03T12:30:00Z"),
    ]
    for (text, iso) in cases {
      XCTAssertEqual(FeedDate.parse(text), FeedTestSupport.utc(iso), text)
    }
  }

  func testFractionalSecondsAreKept() {
    let expected = FeedTestSupport.utc("2020-01-06T10:00:00Z")?.addingTimeInterval(0.25)
    XCTAssertEqual(FeedDate.parse("2020-01-06T12:00:00.250+02:00"), expected)
  }

  /// An offset no zone has (`+3000`, likely a typo for `+0300`) is applied as written, as
  /// feedparser and podcastparser do, not dropped: the date stays the instant they show.
  func testAnImpossibleZoneOffsetIsAppliedAsWritten() {
    XCTAssertEqual(
      FeedDate.parse("Mon, 06 Jan 2020 12:00:00 +3000"),
      FeedTestSupport.utc("2020-01-05T06:00:00Z"))
    XCTAssertEqual(
      FeedDate.parse("2020-01-06T12:00:00-3000"), FeedTestSupport.utc("2020-01-07T18:00:00Z"))
  }

  func testGarbageDatesAreNil() {
    for text in [
      "", "soon", "Mon, 32 Jan 2020 10:00:00 GMT", "0000-00-00", "Thu, Jan", "31 Feb 2021",
    ] {
      XCTAssertNil(FeedDate.parse(text), text)
    }
  }

  func testDurations() {
    let cases: [(String, Int?)] = [
      ("1:02:03", 3723), ("01:02:03", 3723), ("45:30", 2730), ("5:07", 307), ("3600", 3600),
      ("3600.75", 3600), ("00:03:36.241", 216), (" 12:00 ", 720), ("90 min", 5400),
      ("1h 30m", 5400), ("\"00:13:11\"", 791), ("", nil), ("garbage", nil), ("1::2", nil),
      ("-5", nil), ("1:2:3:4:5", nil), ("1473256937", nil), ("\u{A0}(20:11)\u{2003}", 1211),
      ("1:2:3:4", nil), ("12:345", 1065), ("1234567890:00", nil), (":30", nil), ("30:", nil),
      ("0:00", 0), ("1:30.5", 90), ("9:99:99", 38439), ("1:\u{660}5", nil),
    ]
    for (text, seconds) in cases {
      XCTAssertEqual(EpisodeDuration.seconds(text), seconds, text)
    }
  }

  func testEnclosureLengths() {
    let cases: [(String, Int64?)] = [
      ("12216320", 12_216_320), ("", nil), ("0", nil), ("12216320 bytes", 12_216_320),
      ("12,216,320", 12_216_320), ("12 MB", 12_582_912), ("1.5 KB", 1536), ("-1", nil),
      ("unknown", nil), ("000123", 123), ("\u{A0}4096\u{A0}", 4096),
      ("999999999999999", 999_999_999_999_999),
      ("1000000000000000", nil),
    ]
    for (text, bytes) in cases {
      XCTAssertEqual(EnclosureLength.bytes(text), bytes, text)
    }
  }

  func testURLsAreTrimmedOnlyWhenNeededAndOnlyWebSchemesPassAsIs() {
    XCTAssertEqual(
      FeedURL.resolve("https://a.example/1.mp3", against: nil), "https://a.example/1.mp3")
    XCTAssertEqual(
      FeedURL.resolve("HTTP://A.example/1.mp3", against: nil), "HTTP://A.example/1.mp3")
    XCTAssertEqual(
      FeedURL.resolve("\u{A0} https://a.example/1.mp3\n", against: nil), "https://a.example/1.mp3")
    XCTAssertEqual(
      FeedURL.resolve("1.mp3", against: "https://a.example/feed/"), "https://a.example/feed/1.mp3")
    XCTAssertEqual(
      FeedURL.resolve("httpx://a.example/1.mp3", against: nil), "httpx://a.example/1.mp3")
    XCTAssertFalse(FeedURL.hasWebScheme("http:/a.example"))
    XCTAssertFalse(FeedURL.hasWebScheme("ftp://a.example"))
    XCTAssertTrue(FeedURL.hasWebScheme("hTTpS://a.example"))
  }

  func testOnlyRealHTTPSchemesCountAsWeb() {
    XCTAssertTrue(FeedURL.hasWebScheme("HTTPS://example.com/a.mp3"))
    XCTAssertTrue(FeedURL.hasWebScheme("http://example.com/a.mp3"))
    // Control bytes that case folding by `| 0x20` would turn into ":" and "/".
    XCTAssertFalse(FeedURL.hasWebScheme("http\u{1A}\u{0F}\u{0F}example.com/a.mp3"))
    XCTAssertFalse(FeedURL.hasWebScheme("ftp://example.com/a.mp3"))
  }
}
