import Foundation
import Model
import XCTest

final class LibraryPathsTests: XCTestCase {
  func testPathsFollowTheLayoutTheReadmeGives() {
    let paths = LibraryPaths(root: "/tmp/lib")
    XCTAssertEqual(paths.episodes, "/tmp/lib/Episodes")
    XCTAssertEqual(paths.database, "/tmp/lib/.podcast/library.sqlite")
    XCTAssertEqual(paths.partials, "/tmp/lib/.podcast/partial")
    XCTAssertEqual(paths.lockFile, "/tmp/lib/.podcast/sync.lock")
    XCTAssertEqual(LibraryPaths(root: "/tmp/lib", episodes: "/media/eps").episodes, "/media/eps")
  }

  /// Partial files already on disk are found again only while their names are made the same
  /// way: 64-bit FNV-1a in hex (the published test vectors of "a" and "foobar").
  func testPartialAndRecordNamesAreTheFNV1aHashOfTheirKey() {
    let paths = LibraryPaths(root: "/tmp/lib")
    XCTAssertEqual(paths.partial(for: "a"), "/tmp/lib/.podcast/partial/af63dc4c8601ec8c.part")
    XCTAssertEqual(
      paths.partial(for: "https://example.com/ep1.mp3"),
      "/tmp/lib/.podcast/partial/e9ad52250a94e2fc.part")
    XCTAssertEqual(LibraryPaths.hashName("foobar"), "85944171f73967e8")
  }

  func testPrepareNamesTheDirectoryThatCannotBeCreated() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-paths-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let blocker = directory.appendingPathComponent("file")
    try Data("x".utf8).write(to: blocker)
    let paths = LibraryPaths(root: blocker.appendingPathComponent("lib").path)
    XCTAssertThrowsError(try paths.prepare()) { error in
      XCTAssertTrue("\(error)".contains(blocker.path), "\(error)")
    }
    let notADirectory = LibraryPaths(root: directory.path, episodes: blocker.path)
    XCTAssertThrowsError(try notADirectory.prepare()) { error in
      XCTAssertEqual(error as? LibraryError, .notADirectory(path: blocker.path))
    }
  }
}
