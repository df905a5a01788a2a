import Feeds
import Foundation
import Tags
import XCTest

/// What goes into the tag, from the feed's podcast and episode.
final class EpisodeTagsTests: XCTestCase {
  func testFieldsComeFromTheFeed() {
    let podcast = Podcast(title: "Sine Weekly", author: "Ada Lovelace")
    let episode = Episode(
      title: "  Episode 7:\n Tones ", published: Date(timeIntervalSince1970: 1_714_557_600),
      enclosure: Enclosure(url: "https://example.com/7.mp3"),
      description: "<p>All about <b>440&nbsp;Hz</b> &amp; more.</p><p>Links:</p>", season: 2,
      number: 7)
    let chapters = [ChapterMark(start: 0, title: "Intro")]

    let tags = EpisodeTags(podcast: podcast, episode: episode, chapters: chapters)

    XCTAssertEqual(
      tags,
      EpisodeTags(
        title: "Episode 7: Tones", podcast: "Sine Weekly", author: "Ada Lovelace",
        published: Date(timeIntervalSince1970: 1_714_557_600), number: 7, season: 2,
        genre: "Podcast", comment: "All about 440 Hz & more.\nLinks:", chapters: chapters))
    XCTAssertEqual(tags.timestamp, "2024-05-01T10:00:00")
  }

  func testAnEpisodeWithoutMetadataWritesNothingButTheGenre() {
    let tags = EpisodeTags(
      podcast: Podcast(), episode: Episode(enclosure: Enclosure(url: "https://example.com/a.mp3")))
    XCTAssertEqual(tags, EpisodeTags())
    XCTAssertNil(tags.timestamp)
  }

  /// The comment is the notes as text, read as the full-text index reads them (its cases are
  /// in FullTextTests' MarkupTextTests); notes with nothing readable write no comment.
  func testShowNotesBecomePlainText() {
    XCTAssertEqual(
      EpisodeTags.comment(
        html:
          "<div>Hello,<br/>world &#8212; &#x1F600; &lt;tag&gt; &unknown; &amp</div>\n\n<ul><li>one</li><li>two</li></ul>"
      ),
      "Hello,\nworld — 😀 <tag> &unknown; &amp\none\ntwo")
    XCTAssertEqual(
      EpisodeTags.comment(html: "Plain   text\twith   spaces"), "Plain text with spaces")
    XCTAssertNil(EpisodeTags.comment(html: "<p> </p><img src=x>"))
    XCTAssertEqual(EpisodeTags.comment(html: "a < b and c <d"), "a < b and c <d")
    // Where the tag's own reader fell short: a script's code, a comment, source line breaks
    // inside a paragraph, and a `<` that opens no tag.
    XCTAssertEqual(
      EpisodeTags.comment(
        html:
          "<p>Links\nand more</p><script>track()</script><!-- a > b --><p>1 < 2 > 0</p>"),
      "Links and more\n1 < 2 > 0")
  }

  func testACoverIsAJPEGOrPNGByItsBytes() {
    XCTAssertEqual(CoverImage(data: Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2]))?.mimeType, "image/jpeg")
    XCTAssertEqual(
      CoverImage(data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]))?.mimeType,
      "image/png")
    XCTAssertNil(CoverImage(data: Data("<!DOCTYPE html><html>".utf8)))
    XCTAssertNil(CoverImage(data: Data()))
  }
}
