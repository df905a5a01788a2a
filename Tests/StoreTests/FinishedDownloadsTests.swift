import Foundation
import Model
import Store
import StoreTestSupport
import XCTest

/// The downloads the library finished: an episode is found had by its URL or, within its own
/// feed, by its identity; a folder's downloads are exactly those under it.
final class FinishedDownloadsTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var finished: FinishedDownloads!

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
    finished = FinishedDownloads(store: store)
  }

  @discardableResult
  private func done(
    _ url: String, file: String, feedURL: String? = nil, key: String? = nil
  ) throws -> DownloadRecord {
    try store.seed(
      DownloadRecord(
        url: url, podcastTitle: "Show", episodeTitle: "E", state: .done, partialPath: "",
        file: file, episodeKey: key, feedURL: feedURL))
  }

  func testAnEpisodeIsHadByItsURLOrByItsIdentityInItsOwnFeedWhileItsFileIsThere() throws {
    let file = library.directory.appendingPathComponent("a.mp3")
    try Data("audio".utf8).write(to: file)
    let feed = "https://feeds.example/show"
    try done("https://cdn.example/a.mp3", file: file.path, feedURL: feed, key: "guid:1")

    XCTAssertEqual(
      try finished.find(url: "https://cdn.example/a.mp3", keys: [], feedURL: nil)?.file,
      file.path)
    XCTAssertEqual(
      try finished.find(url: "https://cdn2.example/a.mp3", keys: ["guid:1"], feedURL: feed)?
        .file, file.path, "a new link of the same episode")
    XCTAssertNil(
      try finished.find(
        url: "https://cdn2.example/a.mp3", keys: ["guid:1"], feedURL: "https://other.example/f"),
      "another feed's GUID 1 is another episode")

    try FileManager.default.removeItem(at: file)
    XCTAssertNil(try finished.find(url: "https://cdn.example/a.mp3", keys: [], feedURL: nil))
  }

  /// Whether or not the files are there: a folder's playlist and feed are made from this and
  /// check the disk themselves. `Show_x` and `Show2` sort inside a LIKE 'Show%' but are not
  /// under `Show`.
  func testAFolderHoldsExactlyTheDownloadsUnderIt() throws {
    for (index, file) in [
      "/e/Show/a.mp3", "/e/Show/Season 2/b.mp3", "/e/Show2/c.mp3", "/e/Show_x/d.mp3",
      "/e/Sho/e.mp3",
    ].enumerated() {
      try done("https://cdn.example/\(index).mp3", file: file)
    }
    XCTAssertEqual(
      Set(try finished.under("/e/Show").compactMap(\.file)),
      ["/e/Show/a.mp3", "/e/Show/Season 2/b.mp3"])
    XCTAssertEqual(
      try finished.under(["/e/Show2", "/e/None", "/e/Show_x"]).map { $0.compactMap(\.file) },
      [["/e/Show2/c.mp3"], [], ["/e/Show_x/d.mp3"]])
    XCTAssertEqual(
      try finished.folders(), ["/e/Show", "/e/Show/Season 2", "/e/Show2", "/e/Show_x", "/e/Sho"])
  }

  func testAFeedsFilesAndTheDownloadThatOwnsAFile() throws {
    let feed = "https://feeds.example/show"
    let own = try done("https://cdn.example/a.mp3", file: "/e/Show/a.mp3", feedURL: feed)
    try done("https://cdn.example/b.mp3", file: "/e/Show/b.mp3", feedURL: "https://other.example")
    try store.seed(
      DownloadRecord(
        url: "https://cdn.example/c.mp3", podcastTitle: "Show", episodeTitle: "C",
        state: .paused, partialPath: "", feedURL: feed))
    XCTAssertEqual(try finished.files(feedURL: feed), ["/e/Show/a.mp3"], "finished ones only")
    XCTAssertFalse(try finished.isFileOfAnother("/e/Show/a.mp3", key: own.key))
    XCTAssertTrue(
      try finished.isFileOfAnother(
        "/e/Show/a.mp3", key: DownloadKey(feedURL: nil, episodeKey: nil, url: "https://x/y")))
    XCTAssertEqual(
      try finished.files(since: Date().addingTimeInterval(-60)).map(\.file).sorted(),
      ["/e/Show/a.mp3", "/e/Show/b.mp3"])
  }
}
