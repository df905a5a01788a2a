import Feeds
import Foundation
import SideFiles
import XCTest

/// `<episode>.info.json`: the episode in the keys of `episodes --json`, its file's name and its
/// podcast, secrets masked, unknown values null.
final class EpisodeInfoTests: XCTestCase {
  private func parsed(_ info: EpisodeInfo, besides file: String) throws -> [String: Any] {
    let data = info.document(besides: file)
    XCTAssertEqual(data.last, UInt8(ascii: "\n"), "a text file ends with a newline")
    return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  func testTheDocumentHasTheEpisodeItsFileAndItsPodcast() throws {
    let episode = Episode(
      guid: "g-1", title: "Tones \"quoted\"", published: Date(timeIntervalSince1970: 1_715_421_600),
      duration: 754,
      enclosure: Enclosure(
        url: "https://cdn.example/1.mp3?token=abc123", length: 12_345, type: "audio/mpeg"),
      description: "<p>Line one\nline two</p>", season: 2, number: 3, explicit: true,
      transcripts: [Transcript(url: "https://cdn.example/1.vtt", type: "text/vtt", language: "en")],
      chapters: Chapters(url: "https://cdn.example/1.json", type: "application/json+chapters"))
    let podcast = Podcast(
      title: "Show", author: "Ann", feedURL: "https://user:pw@feeds.example/show.xml")

    let info = try parsed(
      EpisodeInfo(episode: episode, podcast: podcast), besides: "/e/Show/2024-05-11 Tones.mp3")

    XCTAssertEqual(
      Set(info.keys),
      [
        "guid", "title", "published", "duration", "enclosure", "link", "description", "season",
        "number", "episodeType", "explicit", "imageURL", "transcripts", "chapters", "file",
        "podcast",
      ])
    XCTAssertEqual(info["title"] as? String, "Tones \"quoted\"")
    XCTAssertEqual(info["published"] as? String, "2024-05-11T10:00:00Z")
    XCTAssertEqual(info["description"] as? String, "<p>Line one\nline two</p>")
    XCTAssertEqual(info["explicit"] as? Bool, true)
    XCTAssertTrue(info["link"] is NSNull)
    XCTAssertTrue(info["episodeType"] is NSNull)
    XCTAssertEqual(info["file"] as? String, "2024-05-11 Tones.mp3")
    let enclosure = try XCTUnwrap(info["enclosure"] as? [String: Any])
    let url = try XCTUnwrap(enclosure["url"] as? String)
    XCTAssertFalse(url.contains("abc123"), url)
    XCTAssertTrue(url.hasPrefix("https://cdn.example/1.mp3?token="), url)
    let transcripts = try XCTUnwrap(info["transcripts"] as? [[String: Any]])
    XCTAssertEqual(transcripts.first?["language"] as? String, "en")
    let chapters = try XCTUnwrap(info["chapters"] as? [String: Any])
    XCTAssertEqual(chapters["type"] as? String, "application/json+chapters")
    let show = try XCTUnwrap(info["podcast"] as? [String: Any])
    XCTAssertEqual(
      Set(show.keys),
      ["title", "author", "link", "description", "language", "imageURL", "feedURL"])
    XCTAssertEqual(show["title"] as? String, "Show")
    XCTAssertFalse((show["feedURL"] as? String ?? "pw").contains("pw"), "\(show)")
    XCTAssertTrue(show["language"] is NSNull)
  }
}
