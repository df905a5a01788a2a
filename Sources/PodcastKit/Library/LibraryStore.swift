import Foundation
import GRDB

/// The library's state in one SQLite file (WAL mode), shared safely by several `podcast`
/// processes: readers never block, writers wait up to `busyTimeout` for each other.
public final class LibraryStore: Sendable {
  public let paths: LibraryPaths
  private let pool: DatabasePool

  /// How long a write waits for another process's write before giving up.
  static let busyTimeout: TimeInterval = 5

  /// The schema version this build writes: the number of migrations it knows.
  public static var schemaVersion: Int { LibrarySchema.knownMigrations.count }

  /// Opens the library database, creating and migrating it as needed. Refuses, without
  /// touching it, a database written by a newer version of podcast.
  public init(paths: LibraryPaths) throws {
    self.paths = paths
    try paths.prepare()
    pool = try Self.openPool(at: paths.database)
    try refuseNewerSchema()
    try migrate()
  }

  private static func openPool(at path: String) throws -> DatabasePool {
    var configuration = Configuration()
    configuration.busyMode = .timeout(busyTimeout)
    configuration.label = "library"
    do {
      return try DatabasePool(path: path, configuration: configuration)
    } catch let error as DatabaseError {
      throw LibraryError.unreadableDatabase(path: path, reason: Self.reason(error))
    }
  }

  private func refuseNewerSchema() throws {
    let superseded = try guarded {
      try pool.read { db in try LibrarySchema.migrator.hasBeenSuperseded(db) }
    }
    if superseded { throw LibraryError.newerLibrary(path: paths.root) }
  }

  /// Two processes opening a brand-new library at once would both try to create the tables:
  /// GRDB reads the applied migrations outside the migration's transaction, so we serialise
  /// migrating with a short lock of our own (never the sync lock, which a sync holds for long).
  private func migrate() throws {
    let complete = try guarded {
      try pool.read { db in try LibrarySchema.migrator.hasCompletedMigrations(db) }
    }
    if complete { return }
    let lock = try LibraryLock.acquire(file: paths.database + ".migrate-lock", wait: true)
    defer { lock.release() }
    try guarded { try LibrarySchema.migrator.migrate(pool) }
  }

  /// Reads in a snapshot; for queries the typed methods do not cover.
  public func read<T>(_ body: (Database) throws -> T) throws -> T {
    try guarded { try pool.read(body) }
  }

  /// Writes in one transaction; for changes the typed methods do not cover.
  public func write<T>(_ body: (Database) throws -> T) throws -> T {
    try guarded { try pool.write(body) }
  }

  /// Turns SQLite's errors into sentences that name the database; our own errors pass through.
  func guarded<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DatabaseError {
      throw LibraryError.databaseFailed(path: paths.database, reason: Self.reason(error))
    }
  }

  private static func reason(_ error: DatabaseError) -> String {
    error.message ?? error.resultCode.description
  }
}
