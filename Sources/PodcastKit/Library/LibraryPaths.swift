import Foundation

/// Temporary stand-in; replaced by the store branch's LibraryPaths on merge.
public struct LibraryPaths: Sendable {
  public let root: String
  public let episodes: String
  public var stateDirectory: String { root + "/.podcast" }
  public var partials: String { stateDirectory + "/partial" }

  public init(root: String, episodes: String? = nil) {
    self.root = root
    self.episodes = episodes ?? root + "/Episodes"
  }

  public func prepare() throws {
    for directory in [root, episodes, stateDirectory, partials] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
  }
}
