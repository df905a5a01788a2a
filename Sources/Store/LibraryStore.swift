import Basics
import Foundation
internal import GRDB
import Model

#if canImport(Glibc)
  import Glibc
#endif

/// The library's state in one SQLite file (WAL mode), shared safely by several `podcast`
/// processes: readers never block, writers wait up to `busyTimeout` for each other.
///
/// This is the connection and its transactions (`read`, `lookup`, `write`, `relaxedWrite`);
/// what the library holds is read and written through a small front per area, each made from
/// the store: `Subscriptions`, `SavedSettings`, `SubscriptionImport`, `EpisodeLog`,
/// `EpisodeMarks`, `KeptForever`, `DownloadRows`, `FinishedDownloads`, `FeedRefreshes`,
/// `KeptFeeds`, `FindIndex`, and the account's `AccountState`, `AccountJournal`,
/// `AccountOutbox` and `PlayStates` (docs/ARCHITECTURE.md has which writes which table). A change
/// that spans areas (a subscription with its first episodes and queued downloads) is one
/// transaction all the same: the fronts lend each other their steps inside it.
public final class LibraryStore: Sendable {
  public let paths: LibraryPaths
  private let pool: DatabasePool
  /// The `synchronous` level the writer connection was last set to (nil: not yet set). Only
  /// the writer reads and changes it, one transaction at a time.
  private let writerLevel = Locked<Synchronous?>(nil)

  /// How long a write waits for another process's write before giving up.
  package static let busyTimeout: TimeInterval = 5

  /// The schema version this build writes: the number of migrations it knows.
  public static var schemaVersion: Int { LibrarySchema.knownMigrations.count }

  /// Opens the library database, creating and migrating it as needed. Refuses, without
  /// touching it, a database written by a newer version of podcast.
  public init(paths: LibraryPaths) throws {
    self.paths = paths
    try paths.prepare()
    try Self.createIfMissing(paths)
    try Self.refuseEmptyFile(paths.database)
    pool = try Self.openPool(at: paths.database, readOnly: false)
    try refuseNewerSchema()
    try migrate()
    try moveKeptFiles()
  }

  /// Opens an existing library for reading only (`status`, `episodes`): looking never writes,
  /// so it works on a full disk or a read-only library, and never creates or migrates one.
  /// nil when there is no library database yet.
  public init?(readingAt paths: LibraryPaths) throws {
    guard FileManager.default.fileExists(atPath: paths.database) else { return nil }
    self.paths = paths
    try Self.refuseEmptyFile(paths.database)
    pool = try Self.openPool(at: paths.database, readOnly: true)
    try refuseNewerSchema()
    // A garbage file opens fine and fails on its first read: fail here, with the path.
    _ = try guarded { try pool.read { db in try db.tableExists("downloads") } }
  }

  private static func openPool(at path: String, readOnly: Bool) throws -> DatabasePool {
    var configuration = Configuration()
    configuration.busyMode = .timeout(busyTimeout)
    configuration.label = "library"
    // What a savepoint must be able to undo (each feed's record in a sync's batch has one)
    // stays in memory: past 64 KiB SQLite spilled it to a temporary file under /var/tmp, page
    // by page, a third of a first sync's writes. Nothing in it outlives the transaction.
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
    configuration.readonly = readOnly
    do {
      return try DatabasePool(path: path, configuration: configuration)
    } catch let error as DatabaseError {
      throw LibraryError.unreadableDatabase(path: path, reason: Self.reason(error))
    }
  }

  /// A new database is built under a temporary name, migrated, and only then linked into
  /// place, so the real name never holds a half-created library. That makes a 0-byte file at
  /// the real name always a damaged library (a truncation, a full disk), never a new one: it
  /// is refused instead of silently becoming an empty library.
  private static func createIfMissing(_ paths: LibraryPaths) throws {
    guard !FileManager.default.fileExists(atPath: paths.database) else { return }
    let temporary = paths.database + ".new-" + ProcessOwner.current.name
    removeAbandonedCreations(paths)
    let leftovers = [temporary, temporary + "-journal", temporary + "-wal", temporary + "-shm"]
    defer { for path in leftovers { unlink(path) } }
    // 0600, made before SQLite opens it: the library holds private feeds' passwords and
    // tokens, and SQLite gives its -wal and -shm files the database's own permissions.
    let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    if descriptor >= 0 { close(descriptor) }
    do {
      let queue = try DatabaseQueue(path: temporary)
      try LibrarySchema.migrator.migrate(queue)
      try queue.writeWithoutTransaction { db in
        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode=WAL")
      }
      try queue.close()
    } catch let error as DatabaseError {
      throw LibraryError.databaseFailed(path: paths.database, reason: Self.reason(error))
    }
    // Synced before it gets the real name, whatever SQLite synced as it closed: after a power
    // cut the real name must never lead to a database that is not whole on disk.
    let written = open(temporary, O_RDONLY | O_CLOEXEC)
    guard written >= 0, fsync(written) == 0 else {
      let code = errno
      if written >= 0 { close(written) }
      throw LibraryError.databaseFailed(
        path: paths.database, reason: String(cString: strerror(code)))
    }
    close(written)
    // link(2) refuses to replace: when another process created the library first, use theirs.
    // The new name is synced too, or a power cut could take the library with what it holds.
    guard link(temporary, paths.database) != 0 else {
      _ = ParallelFlush.flushDirectories([paths.stateDirectory])
      return
    }
    switch errno {
    case EEXIST: return
    case EPERM, EOPNOTSUPP:
      // A filesystem without hard links (FAT): rename, after the best check it allows.
      if FileManager.default.fileExists(atPath: paths.database) { return }
      if rename(temporary, paths.database) == 0 {
        _ = ParallelFlush.flushDirectories([paths.stateDirectory])
        return
      }
    default: break
    }
    throw LibraryError.databaseFailed(
      path: paths.database, reason: String(cString: strerror(errno)))
  }

  /// What a creation cut short left (`<database>.new-<owner>` and SQLite's files beside it),
  /// once its process is gone.
  private static func removeAbandonedCreations(_ paths: LibraryPaths) {
    let stem = (paths.database as NSString).lastPathComponent + ".new-"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.stateDirectory)) ?? []
    for name in names where name.hasPrefix(stem) && TemporaryName.owner(of: name)?.isAlive != true {
      unlink(paths.stateDirectory + "/" + name)
    }
  }

  private static func refuseEmptyFile(_ path: String) throws {
    var info = stat()
    if stat(path, &info) == 0 && info.st_size == 0 {
      throw LibraryError.emptyDatabase(path: path)
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
    // Readers opened before know the tables as they were ("v6-download-keys" rebuilds one):
    // later reads get connections that see them as they are.
    pool.invalidateReadOnlyConnections()
  }

  /// Reads in a snapshot.
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    try guarded { try pool.read(body) }
  }

  /// Reads outside a transaction, each statement seeing the library as it is at that moment:
  /// for the lookups every download makes (one statement, or a few that need not agree), where
  /// a read transaction's BEGIN and COMMIT cost more than the lookup itself.
  func lookup<T>(_ body: (Database) throws -> T) throws -> T {
    try guarded { try pool.unsafeRead(body) }
  }

  /// `lookup` on the writer's connection: for the reads that decide a write of the same rows
  /// moments later (a download's start). The writer's page cache holds what it just wrote; a
  /// reader's is thrown away by every commit since its last read, and its first statement
  /// reads the pages again, which cost as much as the write this replaced.
  func writerLookup<T>(_ body: (Database) throws -> T) throws -> T {
    try guarded { try pool.writeWithoutTransaction(body) }
  }

  /// Writes in one transaction that is on disk when this returns; for the changes that must
  /// survive a power cut: a download recorded done before its partial file goes
  /// (`DownloadRows.recordFinished`), a subscription added or removed.
  ///
  /// GRDB opens a WAL pool at `synchronous=NORMAL`, where no commit is fsynced (the WAL is
  /// synced only at checkpoints), so this commits at FULL: the WAL is synced before it
  /// returns, and with it every earlier relaxed commit, in order.
  func write<T>(_ body: (Database) throws -> T) throws -> T {
    try transaction(synchronous: .full, body)
  }

  /// Writes in one transaction that is atomic but not fsynced on its own, for sync's
  /// bookkeeping of many feeds (what each feed listed, its validators) and a running
  /// download's progress.
  ///
  /// Why this keeps every guarantee: in WAL mode with `synchronous=NORMAL` a commit is in the
  /// WAL file before this returns, so a killed process (the soak test's `kill -9`) loses
  /// nothing; only a power cut or kernel crash can lose it. Even then the library stays
  /// consistent: the WAL is replayed in order and only up to its last synced frame, so such a
  /// transaction is lost only together with everything written after it, and every write that
  /// must survive a power cut uses `write`, whose sync also makes every earlier relaxed commit
  /// durable. What a lost relaxed commit costs is the next sync reading those feeds again.
  func relaxedWrite<T>(_ body: (Database) throws -> T) throws -> T {
    try transaction(synchronous: .normal, body)
  }

  /// SQLite's `synchronous` levels this store commits at.
  private enum Synchronous: Int {
    case normal = 1
    case full = 2
  }

  /// One immediate transaction committed at `level`. Every write of the store comes through
  /// here and sets its own level first (when the last one left another), so there is no level
  /// to read or to restore.
  private func transaction<T>(synchronous level: Synchronous, _ body: (Database) throws -> T)
    throws -> T
  {
    try guarded {
      try pool.writeWithoutTransaction { db in
        // Set only when it changes: SQLite compiles a PRAGMA again each time it runs, and a
        // sync's many relaxed writes in a row would each pay for it.
        if writerLevel.withLock({ $0 }) != level {
          try db.cachedStatement(sql: "PRAGMA synchronous = \(level.rawValue)").execute()
          writerLevel.withLock { $0 = level }
        }
        // Prepared once, like the level: GRDB's `beginTransaction` and `commit` parse their
        // SQL anew each time, twice per write of a run that makes hundreds.
        try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
        do {
          let result = try body(db)
          try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
          return result
        } catch {
          try? db.rollback()
          throw error
        }
      }
    }
  }

  /// Turns SQLite's errors into sentences that name the database; our own errors pass through.
  package func guarded<T>(_ body: () throws -> T) throws -> T {
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
