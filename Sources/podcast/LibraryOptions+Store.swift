import PodcastKit

extension LibraryOptions {
  var paths: LibraryPaths { LibraryPaths(root: libraryPath, episodes: episodesPath) }

  func openStore() throws -> LibraryStore {
    try LibraryStore(paths: paths)
  }
}
