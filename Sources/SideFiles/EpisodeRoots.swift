import Basics
import Foundation

/// The Episodes directories of a run, and which podcast folder a file is in: the first folder
/// below whichever of them holds it (the deepest, when one is inside another). Files directly
/// in an Episodes directory, or in none of them, have no podcast folder.
package struct EpisodeRoots {
  private let roots: [String]

  package init(_ episodesDirectories: [String]) {
    roots = episodesDirectories.map(StandardPath.of)
      .sorted { $0.count > $1.count }
  }

  /// The Episodes directory holding `file`, and `file`'s podcast folder in it.
  package func locate(_ file: String) -> (root: String, folder: String)? {
    let path = StandardPath.of(file)
    guard let root = roots.first(where: { path.hasPrefix($0 + "/") }) else { return nil }
    // The first component below the root, when there is one more below it.
    let below = path.utf8.dropFirst(root.utf8.count + 1)
    guard let slash = below.firstIndex(of: UInt8(ascii: "/")), slash > below.startIndex,
      below[below.index(after: slash)...].contains(where: { $0 != UInt8(ascii: "/") })
    else { return nil }
    return (root, String(path[..<slash]))
  }
}
