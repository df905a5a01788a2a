import Feeds
import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// The episodes kept whatever the retention: kept and let go by their identity key, as marks
/// are, and none in a library from before there were any.
final class KeptForeverTests: XCTestCase {
  func testEpisodesAreKeptByIdentityAndLetGoAgain() throws {
    let library = try TemporaryLibrary()
    let kept = KeptForever(store: try library.store())
    let one = Episode(
      guid: "one", title: "One", enclosure: Enclosure(url: "https://cdn.example/1.mp3"))
    let two = Episode(title: "Two", enclosure: Enclosure(url: "https://cdn.example/2.mp3?x=1"))
    XCTAssertEqual(try kept.keys(), [])

    try kept.keep([one, two], feedURL: "https://feeds.example/show.xml")
    try kept.keep([one], feedURL: "https://feeds.example/show.xml")

    XCTAssertEqual(try kept.keys(), [EpisodeMark.key(for: one), EpisodeMark.key(for: two)])
    try kept.keep([two], feedURL: nil, forever: false)
    XCTAssertEqual(try kept.keys(), [EpisodeMark.key(for: one)])
  }
}
