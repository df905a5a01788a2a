import Foundation
import SideFiles
import StoreTestSupport
import XCTest

final class DownloadedFilesTests: XCTestCase {
  func testDeletesEpisodesAndTheirEmptyFolderButNothingOutside() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    let show = URL(fileURLWithPath: library.paths.episodes).appendingPathComponent("Show")
    try FileManager.default.createDirectory(at: show, withIntermediateDirectories: true)
    let episode = show.appendingPathComponent("2024-05-01 One.mp3")
    let outside = library.directory.appendingPathComponent("precious.txt")
    for file in [episode, outside] { try Data("x".utf8).write(to: file) }

    let sneaky = show.appendingPathComponent("../../precious.txt").path
    let outcome = DownloadedFiles.delete(
      [episode.path, outside.path, sneaky], paths: library.paths)

    XCTAssertEqual(outcome.deleted, [episode.path])
    let episodes = URL(fileURLWithPath: library.paths.episodes).standardizedFileURL.path
    XCTAssertEqual(
      outcome.failures,
      [
        .outsideEpisodes(file: outside.path, episodes: episodes),
        .outsideEpisodes(file: sneaky, episodes: episodes),
      ])
    XCTAssertEqual(
      outcome.failures.first?.localizedDescription,
      "\(outside.path) is outside \(episodes); left in place")
    XCTAssertFalse(FileManager.default.fileExists(atPath: show.path), "empty podcast folder goes")
    XCTAssertTrue(FileManager.default.fileExists(atPath: library.paths.episodes))
    XCTAssertTrue(FileManager.default.fileExists(atPath: outside.path))
  }
}
