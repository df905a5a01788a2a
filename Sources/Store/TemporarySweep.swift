import Basics
import Foundation
import Model

#if canImport(Glibc)
  import Glibc
#endif

/// Removes every temporary a run that is gone left (see `TemporaryName`), wherever runs write
/// them: the library's state folder and its subfolders (kept copies of feeds, playlists and
/// feeds being staged, cover records, a library creation cut short) and every folder under
/// each Episodes directory (side files, playlists, folder feeds, staged copies of episodes on
/// a filesystem without `O_TMPFILE`). A temporary of a process still running stays.
///
/// Only a run that died leaves any, so listing every folder under Episodes at the start of
/// every run (tens of thousands of directory reads an hour for the cron job of a large
/// library) is kept for when one did: each download or sync run leaves a mark in
/// `.podcast/runs/` while it runs (`RunMark`), and the next run sweeps everything when a mark's
/// run is gone or when the boot changed since the last sweep (a power cut also takes marks
/// that were never synced).
package struct TemporarySweep: Sendable {
  private let store: LibraryStore

  package init(store: LibraryStore) {
    self.store = store
  }

  /// Sweeps the state folder, `episodesDirectories` and every folder a finished download of
  /// the library is in; the paths removed.
  @discardableResult
  package func run(episodesDirectories: [String]) -> [String] {
    var roots = [store.paths.stateDirectory] + episodesDirectories
    // Episodes that went to a subscription's own folder, or through an earlier --episodes-dir.
    let folders = (try? FinishedDownloads(store: store).folders()) ?? []
    var removed: [String] = []
    for root in roots { removed += Self.sweep(tree: root) }
    roots = roots.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    for folder in folders.sorted() where !roots.contains(where: { folder.hasPrefix($0) }) {
      removed += TemporaryName.removeAbandoned(in: folder).map { folder + "/" + $0 }
    }
    return removed
  }

  /// Every abandoned temporary at any depth under `root`.
  private static func sweep(tree root: String) -> [String] {
    guard let entries = FileManager.default.enumerator(atPath: root) else { return [] }
    var removed: [String] = []
    while let entry = entries.nextObject() as? String {
      let name = (entry as NSString).lastPathComponent
      guard name.hasPrefix("."), name.hasSuffix(".tmp") else { continue }
      let path = root + "/" + entry
      let folder = (path as NSString).deletingLastPathComponent
      if TemporaryName.isAbandoned(name, in: folder), unlink(path) == 0 { removed.append(path) }
    }
    return removed
  }
}
