import Model
import Store

/// `podcast status`: every download the library knows, including those another process is
/// running now. Opens the library for reading only, so it works on a full disk and changes
/// nothing; a folder without a library has no downloads.
public struct ShowStatus: Sendable {
  private let paths: LibraryPaths

  public init(paths: LibraryPaths) {
    self.paths = paths
  }

  public func run() throws -> [DownloadRecord] {
    try LibraryStore(readingAt: paths).map { try DownloadRows(store: $0).forDisplay() } ?? []
  }
}
