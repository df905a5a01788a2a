import PodcastKit

extension LibraryOptions {
  /// The library opened for looking only (`status`, `episodes`): nil when there is none yet,
  /// an error (never an empty library) when its database is damaged.
  func openStoreForReading() throws -> LibraryStore? {
    try LibraryStore(readingAt: paths)
  }
}
