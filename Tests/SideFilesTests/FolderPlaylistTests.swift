import Basics
import Foundation
import Model
import SideFiles
import Store
import StoreTestSupport
import XCTest

@testable import Store

/// What a podcast folder's playlist lists, in which order, and when it is left alone or removed.
final class FolderPlaylistTests: XCTestCase {
  private var library: TemporaryLibrary!
  private var store: LibraryStore!
  private var show: String { library.paths.episodes + "/Show" }
  private var playlist: FolderPlaylist { FolderPlaylist(folder: show) }

  override func setUpWithError() throws {
    library = try TemporaryLibrary()
    store = try library.store()
  }

  private func day(_ number: Int) -> Date {
    Date(timeIntervalSince1970: 1_714_521_600 + Double(number) * 86_400)
  }

  /// A finished download of `relativePath` (under Episodes), on disk unless `onDisk` is false.
  private func finished(
    _ relativePath: String, title: String = "", published: Date?, downloaded: Date = Date(),
    state: DownloadState = .done, onDisk: Bool = true
  ) throws {
    let file = library.paths.episodes + "/" + relativePath
    if onDisk {
      try FileManager.default.createDirectory(
        atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("audio".utf8)))
    }
    try store.seed(
      DownloadRecord(
        url: "https://cdn.example/" + relativePath, podcastTitle: "Show", episodeTitle: title,
        state: state, partialPath: "/p/\(relativePath.hashValue).part",
        file: state == .done ? file : nil, published: published),
      updatedAt: downloaded)
  }

  private func text() throws -> String {
    try String(contentsOfFile: playlist.path, encoding: .utf8)
  }

  func testNewestFirstByPublicationDateElseDownloadTimeWithSubfoldersRelative() throws {
    try finished("Show/Season 1/one.mp3", title: "One", published: day(1))
    try finished("Show/three.mp3", title: "Three", published: day(3))
    // No publication date: placed by when it was downloaded, between the other two.
    try finished("Show/undated.mp3", published: nil, downloaded: day(2))
    try finished("Show/b same day.mp3", title: "B", published: day(4))
    try finished("Show/a same day.mp3", title: "A", published: day(4))

    XCTAssertEqual(try playlist.update(store: store), .written(entries: 5))

    XCTAssertEqual(
      try text(),
      """
      #EXTM3U
      #EXTINF:-1,A
      a same day.mp3
      #EXTINF:-1,B
      b same day.mp3
      #EXTINF:-1,Three
      three.mp3
      #EXTINF:-1,undated.mp3
      undated.mp3
      #EXTINF:-1,One
      Season 1/one.mp3

      """)
    XCTAssertEqual(playlist.path, show + "/Show.m3u8")
  }

  /// Only finished downloads of this folder whose file is there: not another folder whose name
  /// starts the same, not a download still running, not a file deleted behind the library's back.
  func testListsOnlyThisFoldersFinishedFilesThatExist() throws {
    try finished("Show/kept.mp3", title: "Kept", published: day(1))
    try finished("Show Extra/other.mp3", title: "Other", published: day(2))
    try finished("Show_/other.mp3", title: "Other", published: day(2))
    try finished("Show/running.mp3", title: "Running", published: day(3), state: .downloading)
    try finished("Show/deleted.mp3", title: "Deleted", published: day(4), onDisk: false)

    XCTAssertEqual(try playlist.update(store: store), .written(entries: 1))

    XCTAssertEqual(try text(), "#EXTM3U\n#EXTINF:-1,Kept\nkept.mp3\n")
  }

  func testAnUnchangedPlaylistIsNotRewrittenAndAnEmptyOneIsRemoved() throws {
    try finished("Show/one.mp3", title: "One", published: day(1))
    XCTAssertEqual(try playlist.update(store: store), .written(entries: 1))
    XCTAssertEqual(try playlist.update(store: store), .unchanged)

    try FileManager.default.removeItem(atPath: show + "/one.mp3")
    let mine = show + "/notes.txt"
    XCTAssertTrue(FileManager.default.createFile(atPath: mine, contents: Data()))

    XCTAssertEqual(try playlist.update(store: store), .removed)
    XCTAssertFalse(FileManager.default.fileExists(atPath: playlist.path))
    XCTAssertTrue(FileManager.default.fileExists(atPath: mine))
    XCTAssertEqual(try playlist.update(store: store), .unchanged, "nothing to remove twice")
  }

  /// What a killed run left half-written goes (a live process's write in progress stays), and
  /// a folder the playlist was the last thing in goes with it.
  func testAbandonedTemporariesAndTheEmptiedFolderAreRemoved() throws {
    try finished("Show/one.mp3", title: "One", published: day(1))
    let gone = ProcessOwner(pid: 999_999_999, started: 1, boot: ProcessOwner.currentBoot)
    let abandoned = show + "/.podcast-playlist-\(gone.name)-A.tmp"
    let running = show + "/.podcast-playlist-\(ProcessOwner.current.name)-B.tmp"
    for file in [abandoned, running] {
      XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("#EXTM3U".utf8)))
    }

    XCTAssertEqual(try playlist.update(store: store), .written(entries: 1))

    XCTAssertFalse(FileManager.default.fileExists(atPath: abandoned))
    XCTAssertTrue(FileManager.default.fileExists(atPath: running))

    try FileManager.default.removeItem(atPath: running)
    try FileManager.default.removeItem(atPath: show + "/one.mp3")
    XCTAssertEqual(try playlist.update(store: store), .removed)
    XCTAssertFalse(FileManager.default.fileExists(atPath: show))
  }

  func testTheFolderOfAFileIsTheFirstBelowTheDeepestEpisodesDirectory() {
    let episodes = library.paths.episodes
    let kids = episodes + "/Kids"
    let folders = FolderViews.folders(
      of: [
        episodes + "/Show/Season 1/one.mp3", episodes + "/Show/two.mp3",
        kids + "/Tales/one.mp3", episodes + "/loose.mp3", "/elsewhere/Show/one.mp3",
      ], episodesDirectories: [episodes, kids])

    XCTAssertEqual(folders, [episodes + "/Show", kids + "/Tales"])
  }

  /// Libraries from before publication dates were kept on download rows take them from what
  /// sync recorded for the same file.
  func testTheMigrationTakesPublicationDatesFromSyncsRecords() throws {
    let id = try XCTUnwrap(
      Subscriptions(store: store).add(
        name: "show", feedURL: "https://a.example/feed", title: "Show", keep: nil
      ).id)
    let file = show + "/one.mp3"
    try EpisodeLog(store: store).record(
      subscriptionId: id,
      episodes: [
        SeenEpisode(
          guid: "1", enclosureURL: "https://cdn.example/1.mp3", title: "One", published: day(1),
          downloadedFile: file)
      ])
    try finished("Show/one.mp3", title: "One", published: nil)
    // The library as the version before left it, then the migration.
    try store.write { db in
      try db.execute(sql: "ALTER TABLE downloads DROP COLUMN published")
      try LibrarySchema.addDownloadPublished(db)
    }

    XCTAssertEqual(
      try DownloadRows(store: store).find(url: "https://cdn.example/Show/one.mp3")?.published,
      day(1))
  }
}
