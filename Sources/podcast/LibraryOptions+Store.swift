import Foundation
import PodcastKit

extension LibraryOptions {
  var paths: LibraryPaths { LibraryPaths(root: libraryPath, episodes: episodesPath) }

  func openStore() throws -> LibraryStore {
    try LibraryStore(paths: paths)
  }

  /// The store if this library has one; commands that only read never create a library.
  func openExistingStore() throws -> LibraryStore? {
    FileManager.default.fileExists(atPath: paths.database) ? try openStore() : nil
  }
}
