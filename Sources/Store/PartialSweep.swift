import Foundation
import Model

#if canImport(Glibc)
  import Glibc
#endif

/// Keeps `.podcast/partial/` to the partial files of unfinished downloads, at the start of
/// every batch of downloads: a partial file whose row is gone, is done, or names another file
/// is removed, and one an older version named after its URL (`LibraryPaths.partial(for:)`) is
/// taken over under its row's key, so its bytes still resume.
///
/// Nothing another process holds is touched: a download locks its partial file (`flock`) for
/// as long as it runs, and a file is only removed or taken over under that lock. The folder is
/// listed before the rows are read, and a download's row is always written before its partial
/// file is made, so a file listed here has its row in what is read after.
package struct PartialSweep: Sendable {
  private let store: LibraryStore

  package init(store: LibraryStore) {
    self.store = store
  }

  /// The partial files removed (their paths); what cannot be removed stays for the next run.
  @discardableResult
  package func run() throws -> [String] {
    let paths = store.paths
    guard let listed = try? FileManager.default.contentsOfDirectory(atPath: paths.partials)
    else { return [] }
    let names = listed.filter(Self.isPartialName)
    guard !names.isEmpty else { return [] }
    var owned: Set<String> = []
    var formerNames: [String: String] = [:]
    for (key, url) in try DownloadRows(store: store).unfinished() {
      let current = paths.partial(forKey: key)
      owned.insert(current)
      let former = paths.partial(for: url)
      if former != current { formerNames[former] = current }
    }
    var removed: [String] = []
    for name in names {
      let path = paths.partials + "/" + name
      guard !owned.contains(path) else { continue }
      Self.underLock(path) {
        if let current = formerNames[path] {
          // Taken over: the bytes resume under the row's key. When the key's own file exists
          // already, that one is the download's, and this one goes with a later sweep, once
          // the row is done.
          if link(path, current) == 0 {
            unlink(path)
            // A copy a run killed mid-tag left: never finished nor resumed, only deleted.
            unlink(path + ".tagging")
          }
          return
        }
        unlink(path)
        unlink(path + ".tagging")
        removed.append(path)
      }
    }
    return removed
  }

  /// `<FNV-1a hash in hex>.part`, as `LibraryPaths` names partial files.
  static func isPartialName(_ name: String) -> Bool {
    guard name.hasSuffix(".part") else { return false }
    let stem = name.utf8.dropLast(5)
    return (1...16).contains(stem.count)
      && stem.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  /// Runs `body` holding the file's lock, as `PartialFile` takes it; not at all when another
  /// process holds it or the name no longer leads to the file locked.
  private static func underLock(_ path: String, _ body: () -> Void) {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return }
    var held = stat()
    var named = stat()
    guard fstat(descriptor, &held) == 0, stat(path, &named) == 0, held.st_dev == named.st_dev,
      held.st_ino == named.st_ino
    else { return }
    body()
  }
}
