import Basics
import Foundation
import Model
import SideFiles
import Store
import StoreTestSupport
import XCTest

/// The one update of a podcast folder's views (playlist, feed, and any other): which views a
/// run's files make it look at, each file written, left alone or removed with the folder's
/// last episode, and a view of a test's own that joins with no more than its type.
final class FolderViewsTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var show: String { library.paths.episodes + "/Show" }
  private var playlist: String { FolderPlaylist(folder: show).path }
  private var feed: String { FolderFeed(folder: show).path }
  private let asked = FolderRequest(feed: FeedRequest())

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
  }

  /// A finished download of `name` in the show's folder, on disk.
  @discardableResult
  private func finished(_ name: String) throws -> String {
    let file = show + "/" + name
    try FileManager.default.createDirectory(atPath: show, withIntermediateDirectories: true)
    XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("audio".utf8)))
    try store.seed(
      DownloadRecord(
        url: "https://cdn.example/" + name, podcastTitle: "Show", episodeTitle: name,
        state: .done, partialPath: "/p/\(name).part", file: file))
    return file
  }

  private func update(_ files: [TouchedFile], views: [any FolderView.Type]? = nil)
    -> [FolderViewError]
  {
    guard let views else {
      return FolderViews.update(
        files, episodesDirectories: [library.paths.episodes], store: store)
    }
    return FolderViews.update(
      files, views: views, episodesDirectories: [library.paths.episodes], store: store)
  }

  private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  func testEveryViewOfAFolderIsWrittenThenRemovedWithItsLastEpisode() throws {
    let one = try finished("one.mp3")
    XCTAssertEqual(update([TouchedFile(one, .changed, request: asked)]), [])
    XCTAssertTrue(try String(contentsOfFile: playlist, encoding: .utf8).contains("one.mp3"))
    XCTAssertTrue(try String(contentsOfFile: feed, encoding: .utf8).contains("one.mp3"))

    // Not asked again: the feed there is kept up to date all the same.
    let two = try finished("two.mp3")
    XCTAssertEqual(update([TouchedFile(two, .changed)]), [])
    XCTAssertTrue(try String(contentsOfFile: feed, encoding: .utf8).contains("two.mp3"))

    try FileManager.default.removeItem(atPath: one)
    try FileManager.default.removeItem(atPath: two)
    XCTAssertEqual(update([TouchedFile(one, .changed), TouchedFile(two, .changed)]), [])
    XCTAssertFalse(exists(playlist))
    XCTAssertFalse(exists(feed))
    XCTAssertFalse(exists(show), "the folder goes with its last episode and its views")
  }

  /// A file a finish round listed makes the run look at its folder's other views only; a
  /// file whose subscription asks for a feed, at the feed only.
  func testListedAndAskedFilesLookOnlyAtTheViewsTheyConcern() throws {
    let one = try finished("one.mp3")
    XCTAssertEqual(update([TouchedFile(one, .listed, request: asked)]), [])
    XCTAssertFalse(exists(playlist), "listed already: the playlist is not looked at")
    XCTAssertTrue(exists(feed))

    try FileManager.default.removeItem(atPath: feed)
    XCTAssertEqual(update([TouchedFile(one, .asked)]), [], "asks for nothing")
    XCTAssertFalse(exists(feed))
    XCTAssertEqual(update([TouchedFile(one, .asked, request: asked)]), [])
    XCTAssertTrue(exists(feed))
    XCTAssertFalse(exists(playlist), "the playlist is not asked for")
  }

  /// A view made only when asked (the feed, the page), neither asked for nor there, is left
  /// without reading the folder's downloads: a sync's folders that have only a playlist,
  /// written as their episodes arrived, cost the run's end nothing. Seen here by a library
  /// that cannot be read: only the view asked for fails.
  func testViewsNeitherAskedForNorThereNeedNoRead() throws {
    let one = try finished("one.mp3")
    try library.execute("ALTER TABLE downloads RENAME TO hidden")
    XCTAssertEqual(update([TouchedFile(one, .listed)]), [])
    let failures = update([TouchedFile(one, .listed, request: asked)])
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue("\(failures)".contains("cannot write the feed \(feed)"), "\(failures)")
    XCTAssertFalse(exists(feed))
  }

  /// An unchanged view keeps its file (and its time stamp); a view that cannot be written is
  /// one sentence naming it, and the others are written all the same.
  func testAnUnchangedFileIsLeftAloneAndAFailureIsOneSentence() throws {
    let one = try finished("one.mp3")
    XCTAssertEqual(update([TouchedFile(one, .changed)]), [])
    let inode = try FileManager.default.attributesOfItem(atPath: playlist)[.systemFileNumber]
    XCTAssertEqual(update([TouchedFile(one, .changed)]), [])
    XCTAssertEqual(
      try FileManager.default.attributesOfItem(atPath: playlist)[.systemFileNumber] as? Int,
      inode as? Int)

    // A folder where the feed should be: it can be neither written nor renamed over.
    try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
    try FileManager.default.removeItem(atPath: playlist)
    let failures = update([TouchedFile(one, .changed, request: asked)])
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue("\(failures)".contains("cannot write the feed \(feed)"), "\(failures)")
    XCTAssertTrue(exists(playlist))
  }

  /// How many episodes a folder has, as a view of a test's own: the update writes it, leaves
  /// it alone and removes it as it does the others, with nothing written for it but this.
  private struct EpisodeCount: FolderView {
    static func path(inFolder folder: String) -> String { folder + "/count.txt" }

    static func contents(of episodes: FolderEpisodes, request: FolderRequest, existing: Data?)
      -> FolderViewContents
    {
      let onDisk = episodes.records.compactMap(\.file).filter {
        FileManager.default.fileExists(atPath: $0)
      }
      return onDisk.isEmpty ? .none : .file(Data("\(onDisk.count)\n".utf8), entries: onDisk.count)
    }

    static let isWrittenOnArrival = false
    static func isAsked(by request: FolderRequest) -> Bool { false }

    static func cannotWrite(path: String, reason: String) -> FolderViewError {
      .cannotWrite(path: path, reason: reason)
    }

    static func cannotRemove(path: String, reason: String) -> FolderViewError {
      .cannotRemove(path: path, reason: reason)
    }
  }

  func testAViewOfItsOwnJoinsTheUpdateWithItsTypeAlone() throws {
    let views: [any FolderView.Type] = [EpisodeCount.self, FolderPlaylist.self]
    let count = show + "/count.txt"
    let one = try finished("one.mp3")
    let two = try finished("two.mp3")
    XCTAssertEqual(update([TouchedFile(one, .changed)], views: views), [])
    XCTAssertEqual(try String(contentsOfFile: count, encoding: .utf8), "2\n")
    XCTAssertTrue(exists(playlist))

    try FileManager.default.removeItem(atPath: two)
    XCTAssertEqual(update([TouchedFile(two, .changed)], views: views), [])
    XCTAssertEqual(try String(contentsOfFile: count, encoding: .utf8), "1\n")

    try FileManager.default.removeItem(atPath: one)
    XCTAssertEqual(update([TouchedFile(one, .changed)], views: views), [])
    XCTAssertFalse(exists(count))
    XCTAssertFalse(exists(show))
  }
}
