import Foundation
import XCTest

@testable import FullText

/// Transcripts as feeds publish them, read into passages with the moment each starts.
final class TranscriptReaderTests: XCTestCase {
  private func read(_ text: String, _ fileExtension: String) -> [Passage] {
    TranscriptReader.passages(in: Data(text.utf8), fileExtension: fileExtension)
  }

  func testWebVTTCuesKeepTheirStartAndLoseTheirTags() {
    let vtt = """
      WEBVTT
      Kind: captions

      NOTE This is a note
      that spans lines --> and has an arrow-like thing

      STYLE
      ::cue { color: red }

      intro
      00:00.000 --> 00:04.200 align:start
      <v Roger Bingham>We are in New York City

      00:41:12.500 --> 00:41:15.000
      <v Neil>The <i>Voyager</i> probes &amp; the <00:41:13.000>golden record

      01:02:03.004 --> 01:02:05.000
      &lt;laughs&gt;
      """
    XCTAssertEqual(
      read(vtt, "vtt"),
      [
        Passage(start: 0, text: "We are in New York City"),
        Passage(start: 2472.5, text: "The Voyager probes & the golden record"),
        Passage(start: 3723.004, text: "<laughs>"),
      ])
  }

  func testSRTCuesWithCommasCarriageReturnsAndFormatting() {
    let srt =
      "1\r\n00:00:01,000 --> 00:00:04,000\r\n{\\an8}<i>Hello</i> there\r\nsecond line\r\n\r\n"
      + "2\r\n00:01:02,250 --> 00:01:04,000\r\n<font color=\"#fff\">Pluto</font> is small\r\n"
    XCTAssertEqual(
      read(srt, "srt"),
      [
        Passage(start: 1, text: "Hello there second line"),
        Passage(start: 62.25, text: "Pluto is small"),
      ])
  }

  func testPodcastingJSONSegmentsBecomeSentencesAtTheirFirstWord() {
    let words = "The Voyager probes carried a golden record into space. Then".split(separator: " ")
    let segments = words.enumerated().map { offset, word in
      #"{"speaker":"Ada","startTime":\#(100 + Double(offset) * 0.5),"endTime":\#(100.4 + Double(offset) * 0.5),"body":"\#(word)"}"#
    }
    let other = #"{"speaker":"Ben","startTime":"110.5","endTime":111,"body":"Indeed."}"#
    let json =
      #"{"version":"1.0.0","segments":["# + (segments + [other]).joined(separator: ",") + "]}"
    XCTAssertEqual(
      read(json, "json"),
      [
        Passage(start: 100, text: "The Voyager probes carried a golden record into space."),
        Passage(start: 104.5, text: "Then"),
        Passage(start: 110.5, text: "Indeed."),
      ])
  }

  func testHTMLAndPlainTextArePassagesWithoutTimes() {
    let html =
      "<html><head><style>p{}</style><script>var x = 1;</script></head><body><h1>Episode 7</h1><p>We talk about the <b>Voyager</b> probes&nbsp;today.</p><p>Caf&eacute; &#233;lan</p></body></html>"
    XCTAssertEqual(
      read(html, "html"),
      [
        Passage(start: nil, text: "Episode 7"),
        Passage(start: nil, text: "We talk about the Voyager probes today."),
        Passage(start: nil, text: "Café élan"),
      ])
    XCTAssertEqual(
      read("First paragraph.\n\n  Second\tparagraph  \n", "txt"),
      [
        Passage(start: nil, text: "First paragraph."),
        Passage(start: nil, text: "Second paragraph"),
      ])
  }

  /// Files named for one format and holding another are read as what they hold.
  func testAFileIsReadAsWhatItHolds() {
    let vtt = "WEBVTT\n\n00:10.000 --> 00:12.000\nhello\n"
    XCTAssertEqual(read(vtt, "txt").first?.start, 10)
    XCTAssertEqual(read(vtt, "bin").first?.start, 10)
    XCTAssertEqual(read("1\n00:00:03,000 --> 00:00:04,000\nhi\n", "vtt").first?.start, 3)
    XCTAssertEqual(read("not json at all", "json"), [Passage(start: nil, text: "not json at all")])
  }

  func testBrokenFilesGiveWhatCanBeReadAndNeverCrash() {
    XCTAssertEqual(read("", "vtt"), [])
    XCTAssertEqual(read("WEBVTT\n\n99:xx.000 --> 00:01.000\nbad time\n", "vtt"), [])
    XCTAssertEqual(
      read(#"{"segments": [1, "x", {"body": 3}, {"body": "ok"}]}"#, "json"),
      [Passage(start: nil, text: "ok")])
    XCTAssertEqual(read("<p>unclosed <b", "html"), [Passage(start: nil, text: "unclosed <b")])
    let latin1 = Data([0x63, 0x61, 0x66, 0xE9])  // "café" in Latin-1: not UTF-8
    XCTAssertEqual(TranscriptReader.passages(in: latin1, fileExtension: "txt").count, 1)
    let utf16 = "WEBVTT\n\n00:01.000 --> 00:02.000\nwide\n".data(using: .utf16)!
    XCTAssertEqual(
      TranscriptReader.passages(in: utf16, fileExtension: "vtt"), [Passage(start: 1, text: "wide")])
  }

  func testChaptersInTimeOrderWithTheirTitles() {
    let json = """
      {"version":"1.2.0","chapters":[
        {"startTime": 754.5, "title": "The <b>golden</b> record"},
        {"startTime": 0, "title": "Intro"},
        {"startTime": "120", "title": "Hidden", "toc": false},
        {"startTime": 300},
        {"title": "no time"}
      ]}
      """
    XCTAssertEqual(
      ChaptersReader.passages(in: Data(json.utf8)),
      [
        Passage(start: 0, text: "Intro"), Passage(start: 120, text: "Hidden"),
        Passage(start: 754.5, text: "The golden record"),
      ])
    XCTAssertEqual(ChaptersReader.passages(in: Data("[]".utf8)), [])
  }
}
