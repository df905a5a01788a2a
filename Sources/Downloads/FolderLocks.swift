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

  /// Which lock `folder` takes. Case folded, so two spellings of one folder on a
  /// case-insensitive disk share it.
  package func stripe(for folder: String) -> Int {
    var hasher = Hasher()
    hasher.combine(folder.lowercased())
    return Int(UInt(bitPattern: hasher.finalize()) % UInt(stripes.count))
  }
}
