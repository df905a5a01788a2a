import SideFiles
import XCTest

/// The allow-list show notes pass before an archive page shows them: what is kept, what goes,
/// and that nothing a hostile feed writes survives as markup that runs or fetches.
final class ShowNotesHTMLTests: XCTestCase {
  private func safe(_ notes: String) -> String { ShowNotesHTML.safe(notes) }

  func testKeepsTheAllowedMarkup() {
    let notes = """
      <p>In this <em>episode</em> we <strong>talk</strong> <i>about</i> <b>it</b>.<br/>Line two</p>
      <ul><li>one</li><li>two</li></ul><ol><li>first</li></ol>
      <blockquote>quoted <q>words</q></blockquote><pre><code>let x = 1</code></pre>
      <p><a href="https://example.com/a?b=1&amp;c=2">web</a> <a href="mailto:a@example.com">mail</a>
      <a href="HTTP://example.com">upper</a></p>
      """
    XCTAssertEqual(
      safe(notes),
      """
      <p>In this <em>episode</em> we <strong>talk</strong> <i>about</i> <b>it</b>.<br>Line two</p>
      <ul><li>one</li><li>two</li></ul><ol><li>first</li></ol>
      <blockquote>quoted <q>words</q></blockquote><pre><code>let x = 1</code></pre>
      <p><a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">web</a> \
      <a href="mailto:a@example.com" rel="nofollow noopener noreferrer">mail</a>
      <a href="HTTP://example.com" rel="nofollow noopener noreferrer">upper</a></p>
      """)
  }

  func testScriptsStylesAndFramesGoWithTheirContent() {
    let notes = """
      <p>before</p><script>alert(1)</script><SCRIPT type="text/javascript">fetch("//x")</SCRIPT >\
      <style>body{background:url(//tracker)}</style><iframe src="https://evil.example"><p>x</p></iframe>\
      <svg onload="alert(1)"><script>alert(2)</script><text>svg text</text></svg>\
      <math><mi>x</mi></math><object data="x.swf"><embed src="x.swf"></object>\
      <template><img src=x onerror=alert(1)></template><noscript><img src="//t"></noscript>\
      <textarea></textarea><script>"</script><p>after</p>
      """
    XCTAssertEqual(safe(notes), "<p>before</p><p>after</p>")
  }

  func testEventHandlersStylesAndOtherAttributesGo() {
    XCTAssertEqual(
      safe(
        #"<p onclick="alert(1)" style="color:red" class="x" id="y">t</p><b onmouseover=alert(1)>b</b>"#
      ),
      "<p>t</p><b>b</b>")
    XCTAssertEqual(
      safe(#"<a href="https://ok.example" onclick="alert(1)" target="_blank" style="x">l</a>"#),
      #"<a href="https://ok.example" rel="nofollow noopener noreferrer">l</a>"#)
  }

  func testLinksOtherThanWebAndMailLoseTheirTarget() {
    let hostile = [
      "javascript:alert(1)", " JaVaScRiPt:alert(1)", "java\nscript:alert(1)",
      "jav&#x61;script:alert(1)", "javascript&colon;alert(1)", "jav&#97script:alert(1)",
      "&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)",
      "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "/relative/path",
      "//evil.example/x", "file:///etc/passwd", "ftp://example.com", "&unknown;https://x",
    ]
    for href in hostile {
      let attribute = href.replacingOccurrences(of: "\"", with: "&quot;")
      XCTAssertEqual(safe("<a href=\"\(attribute)\">x</a>"), "<a>x</a>", href)
    }
    XCTAssertEqual(
      safe("<a href='https:&#x2F;&#x2F;ok.example/&quot;x'>q</a>"),
      #"<a href="https://ok.example/&quot;x" rel="nofollow noopener noreferrer">q</a>"#,
      "references resolved, then escaped again")
  }

  func testImagesAndOtherElementsGoTheirTextStays() {
    XCTAssertEqual(
      safe(
        #"<div><h2>Title</h2><img src="https://tracker.example/p.gif" onerror="alert(1)">Text <span>in span</span></div><table><tr><td>cell</td></tr></table>"#
      ),
      "Title<br>Text in span<br>cell<br>")
    XCTAssertEqual(safe(#"<img src=x onerror=alert(1)//>"#), "")
    XCTAssertEqual(safe(#"<video src="x.mp4" poster="//t">fallback</video>"#), "")
    XCTAssertEqual(
      safe(#"<link rel=stylesheet href=//x><meta http-equiv=refresh content="0;url=//x">ok"#), "ok")
    XCTAssertEqual(safe(#"<base href="https://evil.example/">ok"#), "ok")
  }

  func testTextIsEscapedAndEscapedMarkupStaysText() {
    XCTAssertEqual(
      safe("<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; 5 > 3 & \"q\" 'a'</p>"),
      "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; 5 &gt; 3 &amp; &quot;q&quot; &#39;a&#39;</p>")
    XCTAssertEqual(safe("<p>a < b</p>"), "<p>a &lt; b</p>")
    XCTAssertEqual(
      safe("<p>caf&eacute; &#8212; &#x2014;</p>"), "<p>caf&eacute; &#8212; &#x2014;</p>")
  }

  func testCommentsDoctypesAndTrickyTagsGo() {
    XCTAssertEqual(safe("<!DOCTYPE html><!-- <script>alert(1)</script> --><p>ok</p>"), "<p>ok</p>")
    XCTAssertEqual(safe("<?xml version='1.0'?><p>ok</p>"), "<p>ok</p>")
    XCTAssertEqual(
      safe("<![CDATA[<script>alert(1)</script>]]>"), "&lt;script&gt;alert(1)&lt;/script&gt;")
    // The browser reads a tag named `scr<script`, then the text `ipt>alert(1)`.
    XCTAssertEqual(
      safe("<p>ok</p><scr<script>ipt>alert(1)</script>"), "<p>ok</p>ipt&gt;alert(1)")
    XCTAssertEqual(safe("<p>cut <a href=\"https://x"), "<p>cut </p>", "a tag cut off is dropped")
    XCTAssertEqual(safe("<p title=\"a>b\">q</p>"), "<p>q</p>")
    XCTAssertEqual(safe("</p foo=\"<script>\">text"), "text")
    XCTAssertEqual(safe("<p>x</ p>y"), "<p>xy</p>")
  }

  func testOutputNestsAsWritten() {
    XCTAssertEqual(safe("<p>one<p>two"), "<p>one</p><p>two</p>")
    XCTAssertEqual(safe("<ul><li>a<li>b</ul>"), "<ul><li>a</li><li>b</li></ul>")
    XCTAssertEqual(safe("<b><i>x</b></i>"), "<b><i>x</i></b>")
    XCTAssertEqual(
      safe("<a href=\"https://a\">1<a href=\"https://b\">2</a>"),
      "<a href=\"https://a\" rel=\"nofollow noopener noreferrer\">1</a><a href=\"https://b\" rel=\"nofollow noopener noreferrer\">2</a>"
    )
    XCTAssertEqual(safe("<em>open"), "<em>open</em>", "open elements closed at the end")
    XCTAssertEqual(safe("</em>stray</strong>"), "stray")
    XCTAssertEqual(
      safe("<p>one</p>\n<p><br></p>\n<p> &nbsp;</p><p>two</p>"),
      "<p>one</p>\n\n<p> &nbsp;</p><p>two</p>", "a paragraph of line breaks alone goes")
  }

  func testPlainNotesMakeParagraphs() {
    XCTAssertEqual(
      safe("First line\nsecond line\n\nNew paragraph & 1 < 2 > 0\r\n\r\nlast  "),
      "<p>First line<br>second line</p><p>New paragraph &amp; 1 &lt; 2 &gt; 0</p><p>last</p>")
    XCTAssertEqual(safe(""), "")
    XCTAssertEqual(safe("1 < 2"), "<p>1 &lt; 2</p>")
  }

  /// Whatever the input, the output holds only the allowed elements and attributes: a crude
  /// tokenizer over many mangled variants of hostile notes finds nothing else.
  func testNothingButTheAllowListSurvivesMangledInput() throws {
    let pieces = [
      "<script>", "</script>", "<img src=x onerror=alert(1)>", "<a href=javascript:x>",
      "\"", "'", "<", ">", "</", "<!--", "-->", "<svg/onload=alert(1)>", "<p>", "<style>",
      "&lt;", "&", "=", " ", "<iframe srcdoc='<script>'>", "</a>", "<a href=\"https://ok\">",
      "<![CDATA[", "]]>", "<math>", "<b>", "text",
    ]
    // A fixed seed: a failure repeats.
    var generator = LinearCongruence(seed: 44)
    let allowedTag = try NSRegularExpression(
      pattern:
        #"^</?(p|br|a|em|strong|i|b|ul|ol|li|blockquote|q|code|pre)>$|^<a href="(https?|mailto):[^"<>]*" rel="nofollow noopener noreferrer">$|^<a>$"#,
      options: [.caseInsensitive])
    for _ in 0..<2_000 {
      let input = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
        pieces[Int.random(in: 0..<pieces.count, using: &generator)]
      }.joined()
      let output = safe(input)
      var rest = Substring(output)
      while let open = rest.firstIndex(of: "<") {
        guard let close = rest[open...].firstIndex(of: ">") else {
          XCTFail("unclosed tag in \(output) from \(input)")
          break
        }
        let tag = String(rest[open...close])
        let range = NSRange(tag.startIndex..., in: tag)
        XCTAssertNotNil(allowedTag.firstMatch(in: tag, range: range), "\(tag) from \(input)")
        rest = rest[rest.index(after: close)...]
      }
    }
  }
}

/// Knuth's MMIX generator: the same sequence for the same seed.
private struct LinearCongruence: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state
  }
}
