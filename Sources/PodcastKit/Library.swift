import Foundation
import Model
import Store

/// A library opened by a command that changes it: created and migrated when needed, so the
/// errors of opening it (a newer library, a damaged database, a read-only folder) come before
/// any work, and before a command detaches into the background.
public struct Library: Sendable {
  public let paths: LibraryPaths
  package let store: LibraryStore

  public init(opening paths: LibraryPaths) throws {
    self.init(store: try LibraryStore(paths: paths))
  }

  package init(store: LibraryStore) {
    self.paths = store.paths
    self.store = store
  }

  /// The pid of the sync that holds this library's lock, as it wrote it; nil when none is
  /// named. For saying whom a `sync --wait` waits for.
  public var syncHolder: Int32? { LibraryLock.holder(paths: paths) }

  /// The store of the library at `paths` when one exists; nil, creating nothing, when none
  /// does. For commands and lookups that only read. A library folder that is a file is an
  /// error all the same: the user pointed at the wrong thing, and an empty answer would hide it.
  package static func existingStore(at paths: LibraryPaths) throws -> LibraryStore? {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: paths.root, isDirectory: &isDirectory),
      !isDirectory.boolValue
    {
      throw LibraryError.notADirectory(path: paths.root)
    }
    return FileManager.default.fileExists(atPath: paths.database)
      ? try LibraryStore(paths: paths) : nil
  }
}
