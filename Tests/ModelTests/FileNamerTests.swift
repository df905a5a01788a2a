import Feeds
import Foundation
import Model
import XCTest

final class FileNamerTests: XCTestCase {
  private let show = Podcast(title: "The Show", feedURL: "https://example.com/feed.xml")

  private func episode(
    _ title: String?, url: String = "https://cdn.example.com/a/media.mp3",
    type: String? = "audio/mpeg"
  )
    -> Episode
  {
    Episode(
      guid: "g1", title: title, published: Date(timeIntervalSince1970: 1_715_335_200),
      enclosure: Enclosure(url: url, type: type), season: 2, number: 7)
  }

  func testDefaultNameIsDateTitleAndExtension() throws {
    let path = try FileNamer().relativePath(for: episode("Hello World"), podcast: show, index: 1)
    XCTAssertEqual(path, "The Show/2024-05-10 Hello World.mp3")
  }

  func testTitlesCannotAddPathComponentsOrEscape() throws {
    let namer = try FileNamer()
    for title in ["../../etc/passwd", "a/b/c", "..", "/", "\u{1}\u{7}bell\n\ttab", ".hidden"] {
      let path = namer.relativePath(for: episode(title), podcast: show, index: 1)
      let parts = path.split(separator: "/")
      XCTAssertEqual(parts.count, 2, "\(title) -> \(path)")
      XCTAssertFalse(parts.contains(".."), path)
      XCTAssertFalse(parts[1].hasPrefix("."), path)
      XCTAssertFalse(path.unicodeScalars.contains { $0.value < 0x20 }, path)
    }
  }

  func testLongTitlesAreCappedAtACharacterBoundary() throws {
    let title = String(repeating: "é", count: 300)
    let path = try FileNamer().relativePath(for: episode(title), podcast: show, index: 1)
    let file = try XCTUnwrap(path.split(separator: "/").last)
    XCTAssertLessThanOrEqual(file.utf8.count, 200)
    XCTAssertTrue(file.hasSuffix(".mp3"))
  }

  func testExtensionComesFromTheURLElseTheMIMEType() throws {
    let namer = try FileNamer(template: "{title}.{ext}")
    XCTAssertEqual(
      namer.relativePath(for: episode("a", url: "https://x/e.m4a?x=1"), podcast: show, index: 1),
      "The Show/a.m4a")
    XCTAssertEqual(
      namer.relativePath(
        for: episode("a", url: "https://x/download", type: "audio/x-m4a"), podcast: show, index: 1),
      "The Show/a.m4a")
    XCTAssertEqual(
      namer.relativePath(
        for: episode("a", url: "https://x/stream", type: "video/mp4"), podcast: show, index: 1),
      "The Show/a.mp4")
  }

  func testTemplatePlaceholders() throws {
    let namer = try FileNamer(
      template: "S{season}/{number} {title} ({index}) [{filename}] {guid}.{ext}")
    XCTAssertEqual(
      namer.relativePath(for: episode("T"), podcast: show, index: 3),
      "The Show/S2/7 T (3) [media] g1.mp3")
  }

  func testAFolderWithoutAValueIsLeftOut() throws {
    let namer = try FileNamer(template: "{season}/{number} {title}.{ext}")
    var unnumbered = episode("T")
    unnumbered.season = nil
    XCTAssertEqual(
      namer.relativePath(for: unnumbered, podcast: show, index: 1), "The Show/7 T.mp3",
      "no folder named _")
    XCTAssertEqual(
      namer.relativePath(for: episode("T"), podcast: show, index: 1), "The Show/2/7 T.mp3")
  }

  /// A title is text, never template: it goes in as written (cleaned), whatever it contains.
  func testATitleThatLooksLikeAPlaceholderStaysText() throws {
    let path = try FileNamer().relativePath(
      for: episode("Why {date} and {ext}?"), podcast: show, index: 1)
    XCTAssertEqual(path, "The Show/2024-05-10 Why {date} and {ext}_.mp3")
  }

  func testColonsTabsAndReservedCharactersBecomeReadable() throws {
    let namer = try FileNamer()
    let names = [
      "Part 1: The Start": "Part 1 - The Start",
      "a::b": "a--b",
      "Q&A: \"Why?\" <live>|now": "Q&A - _Why__ _live_-now",
      "tab\there  and\u{85}next": "tab here and next",
      "zero\u{200B}width": "zerowidth",
      " : leading": "- leading",
    ]
    for (title, expected) in names {
      XCTAssertEqual(
        namer.relativePath(for: episode(title), podcast: show, index: 1),
        "The Show/2024-05-10 \(expected).mp3", title)
    }
  }

  /// ASCII titles take a shorter road (byte by byte): it must end where the road for every
  /// other title does, which a non-ASCII letter at the end sends the same text down.
  func testAnASCIITitleIsCleanedAsAnyOtherTitleIs() {
    let titles = [
      "Part 1: The Start", "a::b", "Q&A: \"Why?\" <live>|now", "tab\there  and\u{7F}next",
      " : leading", "trailing :", "  spaces   inside  ", "a/b\\c", "ctrl\u{1}\u{1F}x", "",
      ":", ": ", "plain",
    ]
    for title in titles {
      XCTAssertEqual(
        FileNamer.clean(title + "é"), FileNamer.clean(title) + (title.hasSuffix(" ") ? " é" : "é"),
        title.debugDescription)
    }
  }

  func testATitleOfOnlyBlanksFallsBackToTheGUID() throws {
    let path = try FileNamer().relativePath(for: episode(" \u{A0}\t"), podcast: show, index: 1)
    XCTAssertEqual(path, "The Show/2024-05-10 g1.mp3")
  }

  func testBadTemplatesAreRejected() {
    XCTAssertThrowsError(try FileNamer(template: "{nope}.{ext}"))
    XCTAssertThrowsError(try FileNamer(template: "{title"))
    XCTAssertThrowsError(try FileNamer(template: "/etc/{title}"))
  }

  /// A template names a file inside the podcast's folder: not nothing, not a folder alone,
  /// not a way out of it.
  func testATemplateMustNameAFileInsideThePodcastsFolder() throws {
    for template in ["", " \t", "{season}/", "{season}/ ", "../{title}.{ext}", "a/./{title}"] {
      XCTAssertThrowsError(try FileNamer(template: template), template.debugDescription)
    }
    for template in ["{title}", "{season}/{title}.{ext}", "a//{title}.{ext}", "..{title}.{ext}"] {
      XCTAssertNoThrow(try FileNamer(template: template), template)
    }
  }

  func testFolderFallsBackToTheFeedHost() {
    XCTAssertEqual(
      FileNamer.folderName(for: Podcast(feedURL: "https://feeds.example.org/x.xml")),
      "feeds.example.org")
    XCTAssertEqual(FileNamer.folderName(for: Podcast(title: "../..")), "Podcast")
    XCTAssertEqual(
      FileNamer.folderName(for: Podcast(title: "...", feedURL: "https://feeds.example.org/x")),
      "feeds.example.org")
  }

  func testAnUntitledEpisodeWithoutGUIDIsNamedAfterItsFileOnce() throws {
    for title in [nil, "", "  "] as [String?] {
      let untitled = Episode(
        guid: nil, title: title, published: nil,
        enclosure: Enclosure(url: "https://cdn.example.com/a.mp3", type: "audio/mpeg"))
      let path = try FileNamer().relativePath(for: untitled, podcast: show, index: 1)
      XCTAssertEqual(path, "The Show/a.mp3", "title \(String(describing: title))")
    }
  }

  /// The same title typed two ways (é precomposed, or e + combining accent) is one name.
  func testTitlesAreNormalisedToNFC() throws {
    let namer = try FileNamer()
    let composed = namer.relativePath(for: episode("Caf\u{E9}"), podcast: show, index: 1)
    let decomposed = namer.relativePath(for: episode("Cafe\u{301}"), podcast: show, index: 1)
    XCTAssertEqual(Array(composed.utf8), Array(decomposed.utf8))
    XCTAssertEqual(composed, "The Show/2024-05-10 Caf\u{E9}.mp3")
  }

  /// `.sh`, `.html` or `.php` in a URL say nothing about a media file: the type decides.
  func testTheExtensionComesFromTheMediaTypeUnlessTheURLsIsAMediaOne() throws {
    let namer = try FileNamer()
    let cases: [(String, String?, String)] = [
      ("https://cdn.example.com/run.sh", "audio/mpeg", "mp3"),
      ("https://cdn.example.com/page.html", "audio/mp4", "m4a"),
      ("https://cdn.example.com/get.php?id=1", "video/mp4", "mp4"),
      ("https://cdn.example.com/a.ogg", "audio/mpeg", "ogg"),
      ("https://cdn.example.com/book.m4b", nil, "m4b"),
    ]
    for (url, type, ext) in cases {
      let path = namer.relativePath(
        for: episode("X", url: url, type: type), podcast: show, index: 1)
      XCTAssertEqual((path as NSString).pathExtension, ext, "\(url) \(String(describing: type))")
    }
  }
}
