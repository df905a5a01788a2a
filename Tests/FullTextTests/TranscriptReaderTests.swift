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
        Passage(start: 0, end: 4.2, speaker: "Roger Bingham", text: "We are in New York City"),
        Passage(
          start: 2472.5, end: 2475, speaker: "Neil",
          text: "The Voyager probes & the golden record"),
        Passage(start: 3723.004, end: 3725, text: "<laughs>"),
      ])
  }

  /// What the archive page's own reader handled, now read here: a titled header, a voice with
  /// a class, hours-less times with cue settings, a cue whose end cannot be read (kept, no
  /// end), an end before the start, and a cue two people speak in (no one speaker for it).
  func testWebVTTEndsAndSpeakers() {
    let vtt = """
      WEBVTT - Episode 12 of Sine Weekly

      NOTE
      Made by a transcription service.

      1
      01:02.500 --> 01:04.000 line:90% position:50% align:middle
      <v.loud Tom &amp; Jerry>Hi &amp; bye</v>

      2
      01:05.000 --> later
      No end given

      3
      01:10.000 --> 01:09.000
      Ends before it starts

      4
      01:12.000 --> 01:15.000
      <v Ana>Are you there?
      <v Bob>I am.

      5
      01:16.000 --> 01:18.000
      <v Ana>Good.</v> <v Ana>Let us start.
      """
    XCTAssertEqual(
      read(vtt, "vtt"),
      [
        Passage(start: 62.5, end: 64, speaker: "Tom & Jerry", text: "Hi & bye"),
        Passage(start: 65, text: "No end given"),
        Passage(start: 70, end: 70, text: "Ends before it starts"),
        Passage(start: 72, end: 75, text: "Are you there? I am."),
        Passage(start: 76, end: 78, speaker: "Ana", text: "Good. Let us start."),
      ])
  }

  func testSRTCuesWithCommasCarriageReturnsAndFormatting() {
    let srt =
      "1\r\n00:00:01,000 --> 00:00:04,000\r\n{\\an8}<i>Hello</i> there\r\nsecond line\r\n\r\n"
      + "2\r\n00:01:02,250 --> 00:01:04,000\r\n<font color=\"#fff\">Pluto</font> is small\r\n"
    XCTAssertEqual(
      read(srt, "srt"),
      [
        Passage(start: 1, end: 4, text: "Hello there second line"),
        Passage(start: 62.25, end: 64, text: "Pluto is small"),
      ])
  }

  /// SRT as editors export it: a byte order mark, CRLF, hours past one, cue numbers, and
  /// the coordinates some add after the end time.
  func testSRTWithAByteOrderMarkAndCoordinates() {
    let srt =
      "1\r\n00:00:01,000 --> 00:00:03,500\r\nFirst <i>line</i>\r\nwrapped\r\n\r\n"
      + "2\r\n01:00:00,000 --> 01:00:02,000  X1:100 X2:600 Y1:50 Y2:80\r\nLate\r\n"
    let data = Data([0xEF, 0xBB, 0xBF]) + Data(srt.utf8)
    XCTAssertEqual(
      TranscriptReader.passages(in: data, fileExtension: "srt"),
      [
        Passage(start: 1, end: 3.5, text: "First line wrapped"),
        Passage(start: 3600, end: 3602, text: "Late"),
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
        Passage(
          start: 100, end: 104.4, speaker: "Ada",
          text: "The Voyager probes carried a golden record into space."),
        Passage(start: 104.5, end: 104.9, speaker: "Ada", text: "Then"),
        Passage(start: 110.5, end: 111, speaker: "Ben", text: "Indeed."),
      ])
  }

  /// Times as numbers, as numeric strings and as clock strings; segments without `endTime`
  /// (a passage ends where its last segment with one ends, or has no end); no speaker.
  func testPodcastingJSONTimesAndMissingEnds() {
    let json = """
      {"version": "1.0.0", "segments": [
        {"speaker": "Ana", "startTime": "1.5", "endTime": "2.0", "body": "Hello"},
        {"speaker": "Ana", "startTime": 2.0, "body": "world."},
        {"speaker": "", "startTime": "00:01:02.500", "endTime": "00:01:04", "body": "Later on."},
        {"startTime": 70, "body": "No end at all."}
      ]}
      """
    XCTAssertEqual(
      read(json, "json"),
      [
        Passage(start: 1.5, end: 2, speaker: "Ana", text: "Hello world."),
        Passage(start: 62.5, end: 64, text: "Later on."),
        Passage(start: 70, text: "No end at all."),
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
    XCTAssertEqual(read(vtt, "txt"), [Passage(start: 10, end: 12, text: "hello")])
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
      TranscriptReader.passages(in: utf16, fileExtension: "vtt"),
      [Passage(start: 1, end: 2, text: "wide")])
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

  /// What a player lists (the archive page's chapters): hidden chapters left out, untitled
  /// ones kept with no text, ends where the file gives them, times as strings too.
  func testChaptersTableOfContents() {
    let json = """
      {"version":"1.2.0","chapters":[
        {"startTime": 60, "endTime": "90", "title": "B"},
        {"startTime": 0, "title": "A", "img": "https://example.com/a.jpg"},
        {"startTime": 30, "toc": false, "img": "https://example.com/art.jpg"},
        {"startTime": "00:02:00", "endTime": 100},
        "not a chapter"
      ]}
      """
    XCTAssertEqual(
      ChaptersReader.tableOfContents(in: Data(json.utf8)),
      [
        Passage(start: 0, text: "A"), Passage(start: 60, end: 90, text: "B"),
        Passage(start: 120, end: 120, text: ""),
      ])
    XCTAssertEqual(
      ChaptersReader.passages(in: Data(json.utf8)),
      [Passage(start: 0, text: "A"), Passage(start: 60, end: 90, text: "B")])
  }
}
