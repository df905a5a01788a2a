import Feeds
import FeedsTestSupport
import Foundation
import XCTest

/// Feeds in the encodings publishers really use come out as the same text.
final class FeedEncodingTests: XCTestCase {
  typealias S = FeedTestSupport

  private func document(encoding: String?, title: String) -> String {
    let declaration = encoding.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>" } ?? ""
    return declaration + """
      <rss version="2.0"><channel><title>Show</title>
      <item><title>\(title)</title><enclosure url="https://e.com/1.mp3"/></item>
      </channel></rss>
      """
  }

  func testDeclaredISO88591() throws {
    let data = try XCTUnwrap(
      document(encoding: "ISO-8859-1", title: "Caf\u{E9} cr\u{E8}me").data(using: .isoLatin1))
    XCTAssertEqual(try FeedParser.parse(data, baseURL: nil).episodes.first?.title, "Café crème")
  }

  func testDeclaredWindows1252() throws {
    let data = try XCTUnwrap(
      document(encoding: "windows-1252", title: "\u{201C}Quoted\u{201D} \u{2014} \u{20AC}5").data(
        using: .windowsCP1252))
    XCTAssertEqual(try FeedParser.parse(data, baseURL: nil).episodes.first?.title, "“Quoted” — €5")
  }

  func testUTF16WithByteOrderMark() throws {
    let data = try XCTUnwrap(document(encoding: "UTF-16", title: "日本語のポッドキャスト").data(using: .utf16))
    XCTAssertEqual(Array(data.prefix(2)).sorted(), [0xFE, 0xFF], "Foundation writes a BOM")
    XCTAssertEqual(try FeedParser.parse(data, baseURL: nil).episodes.first?.title, "日本語のポッドキャスト")
  }

  func testUndeclaredEncodingWithStrayWindows1252BytesStillGivesEpisodes() throws {
    var data = Data(document(encoding: nil, title: "Smart QUOTE and caf\u{E9}").utf8)
    let quote = try XCTUnwrap(data.range(of: Data("QUOTE".utf8)))
    data.replaceSubrange(quote, with: [0x93, 0x51, 0x94])  // “Q” in Windows-1252
    let feed = try FeedParser.parse(data, baseURL: nil)
    XCTAssertEqual(feed.episodes.first?.title, "Smart “Q” and café")
  }

  func testNULBytesDoNotCrashOrHideEarlierEpisodes() throws {
    var data = Data(S.rss(S.item("Before")).utf8)
    let index = try XCTUnwrap(data.range(of: Data("</channel>".utf8))).lowerBound
    data.insert(contentsOf: [0, 0, 0x41, 0], at: index)
    XCTAssertEqual(try FeedParser.parse(data, baseURL: nil).episodes.map(\.title), ["Before"])
  }

  func testNULAndOtherC0BytesDoNotHideLaterEpisodes() throws {
    var data = Data(S.rss(S.item("Before") + S.item("Nul Title") + S.item("After")).utf8)
    let title = try XCTUnwrap(data.range(of: Data("Nul Title".utf8)))
    data.replaceSubrange(
      title, with: Data("Nul".utf8) + [0, 0x07, 0x41, 0x1B] + Data("Title".utf8))
    let titles = try FeedParser.parse(data, baseURL: nil).episodes.map(\.title)
    XCTAssertEqual(Set(titles), ["Before", "NulATitle", "After"])
  }
}
