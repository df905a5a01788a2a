import Foundation
import XCTest

@testable import PodcastKit

final class DownloadedFilesTests: XCTestCase {
  func testDeletesEpisodesAndTheirEmptyFolderButNothingOutside() throws {
    let library = try TemporaryLibrary()
    try library.paths.prepare()
    let show = URL(fileURLWithPath: library.paths.episodes).appendingPathComponent("Show")
    try FileManager.default.createDirectory(at: show, withIntermediateDirectories: true)
    let episode = show.appendingPathComponent("2024-05-01 One.mp3")
    let outside = library.directory.appendingPathComponent("precious.txt")
    for file in [episode, outside] { try Data("x".utf8).write(to: file) }

    let outcome = DownloadedFiles.delete(
      [episode.path, outside.path, show.appendingPathComponent("../../precious.txt").path],
      paths: library.paths)

    XCTAssertEqual(outcome.deleted, [episode.path])
    XCTAssertEqual(outcome.failures.count, 2)
    XCTAssertFalse(FileManager.default.fileExists(atPath: show.path), "empty podcast folder goes")
    XCTAssertTrue(FileManager.default.fileExists(atPath: library.paths.episodes))
    XCTAssertTrue(FileManager.default.fileExists(atPath: outside.path))
  }
}
