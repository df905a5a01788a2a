import Foundation

@testable import Library

/// A library in a fresh temporary directory, removed when the test ends.
final class TemporaryLibrary {
  let directory: URL
  let paths: LibraryPaths

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("podcast-store-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    paths = LibraryPaths(root: directory.path)
  }

  func store() throws -> LibraryStore { try LibraryStore(paths: paths) }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }
}
