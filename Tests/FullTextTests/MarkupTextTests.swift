import XCTest

@testable import FullText

/// Show notes and HTML transcripts as text to search and quote.
final class MarkupTextTests: XCTestCase {
  func testTagsBlocksEntitiesAndWhiteSpace() {
    XCTAssertEqual(
      MarkupText.text(
        "<p>Hello&nbsp;<b>world</b></p><ul><li>one</li><li>two &amp; three</li></ul>"),
      "Hello world\none\ntwo & three")
    XCTAssertEqual(MarkupText.text("<!-- hidden -->shown<br/>next"), "shown\nnext")
    XCTAssertEqual(MarkupText.text("a <script>alert('<p>')</script>b"), "a b")
    XCTAssertEqual(
      MarkupText.text("Na&iuml;ve caf&#xE9; &#8212; &bogus; &"), "Naïve café — &bogus; &")
  }

  /// The cases of the reader the tags had before they used this one (Tags' `PlainText`).
  func testWhatTheTagsReaderHandled() {
    XCTAssertEqual(
      MarkupText.text(
        "<div>Hello,<br/>world &#8212; &#x1F600; &lt;tag&gt; &unknown; &amp</div>\n\n<ul><li>one</li><li>two</li></ul>"
      ),
      "Hello,\nworld — 😀 <tag> &unknown; &amp\none\ntwo")
    XCTAssertEqual(MarkupText.text("Plain   text\twith   spaces"), "Plain text with spaces")
    XCTAssertEqual(MarkupText.text("<p> </p><img src=x>"), "")
    XCTAssertEqual(MarkupText.text("a < b and c <d"), "a < b and c <d")
  }

  func testPlainTextKeepsItsLinesAndLessThanSigns() {
    XCTAssertEqual(MarkupText.text("1 < 2\n\nand  3 > 2"), "1 < 2\nand 3 > 2")
  }

  func testControlCharactersAndMarksNeverSurvive() {
    XCTAssertEqual(MarkupText.text("a\u{1}b\u{2}c\u{1B}[31md\u{85}e"), "abc[31mde")
    XCTAssertEqual(IndexedText.clean(" a\u{1}\tb \n c\u{202E} ", keepingLines: true), "a b\nc")
    XCTAssertEqual(IndexedText.clean("a\nb", keepingLines: false), "a b")
  }

  func testTheLimitCutsAtACharacter() {
    let text = MarkupText.text(String(repeating: "é", count: 100), limit: 11)
    XCTAssertTrue(text.utf8.count <= 11)
    XCTAssertTrue(text.allSatisfy { $0 == "é" })
  }
}
