import Basics
import Foundation

/// Locks by folder, for steps that must not interleave with another's in the same folder but
/// may run beside those in other folders. A fixed set of locks picked by the folder's name: two
/// folders sharing one only wait for each other, and the set never grows with the library.
package final class FolderLocks: Sendable {
  private let stripes: [NSLock]

  package init(count: Int = 64) {
    stripes = (0..<max(1, count)).map { _ in NSLock() }
  }

  package func withLock<Result>(folder: String, _ body: () throws -> Result) rethrows -> Result {
    let lock = stripes[stripe(for: folder)]
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// The locks of all of `folders` at once, for a finish batch. Always taken in the order of
  /// their index, and `withLock` takes one: no two takers can each hold what the other waits
  /// for.
  package func withLocks<Result>(folders: some Sequence<String>, _ body: () throws -> Result)
    rethrows -> Result
  {
    let chosen = Set(folders.map(stripe(for:))).sorted()
    for index in chosen { stripes[index].lock() }
    defer { for index in chosen.reversed() { stripes[index].unlock() } }
    return try body()
  }

  /// Which lock `folder` takes. Case folded, so two spellings of one folder on a
  /// case-insensitive disk share it.
  package func stripe(for folder: String) -> Int {
    var hasher = Hasher()
    hasher.combine(folder.lowercased())
    return Int(UInt(bitPattern: hasher.finalize()) % UInt(stripes.count))
  }
}
