import PodcastKit

extension LibraryOptions {
  var paths: LibraryPaths { LibraryPaths(root: libraryPath, episodes: episodesPath) }
}
