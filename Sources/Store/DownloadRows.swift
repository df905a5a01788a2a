import Basics
import Foundation
internal import GRDB
import Model

#if canImport(Glibc)
  import Glibc
#endif

/// The library's downloads, one row per episode (see `DownloadKey`), as the downloader moves
/// them (see `DownloadTransition`) and `podcast status` lists them. Every write here throws: a
/// library that cannot record a download must say so, not download it again next time.
public struct DownloadRows: Sendable {
  let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  /// Shows `downloads` as queued (see `DownloadTransition.queue`): new ones are added;
  /// failed, paused or abandoned ones wait again, under the feed's current link. A row that is
  /// done, or being downloaded by a live process, is left alone. Returns the key of each one's
  /// row: the partial file and every later write of the download go by it.
  ///
  /// Relaxed (see `LibraryStore.relaxedWrite`): a queued row vouches for no bytes, and one lost to a power
  /// cut is queued again by the next run. A full commit would cost a WAL sync per feed of a
  /// sync, on the one writer every download waits for.
  package func queue(_ downloads: [QueuedDownload]) throws -> [DownloadKey] {
    guard !downloads.isEmpty else { return [] }
    return try store.relaxedWrite { db in
      try FinishedDownloads.recordShows(of: downloads, db)
      return try downloads.map { try queue($0, db) }
    }
  }

  /// How `start` found a download.
  package enum Start: Sendable {
    /// Begun in this process: the row after the move. `unwritten`: the move is not written
    /// yet, and goes with the download's first write (see `start`).
    case begun(DownloadRecord, unwritten: DownloadTransition?)
    /// The episode is here already: this finished download (under this row or another of
    /// the episode's), its `file` still there. Nothing was written.
    case alreadyHere(DownloadRecord, file: String)
  }

  /// The download keyed `key` starts in this process (`owner`, holding its partial file with
  /// `bytesOnDisk` bytes): begun (see `DownloadTransition.begin`, `wanted` being the job as
  /// queued), unless the episode turns out to be here already, found as
  /// `FinishedDownloads.find` finds it (another process may have finished it since it was queued). One transaction for
  /// the check and the move, which reads the row once (see `transition`): relaxed, as every
  /// move of a running download, unless the begin lowers the row's durable length (the file
  /// is shorter than the row says is synced), which must be on disk before the bytes it no
  /// longer vouches for are written over.
  package func start(
    _ key: DownloadKey, _ wanted: QueuedDownload, owner: ProcessOwner, bytesOnDisk: Int64
  ) throws -> Start {
    if let unwritten = try store.writerLookup({ db in
      try startUnwritten(key, wanted, owner: owner, bytesOnDisk: bytesOnDisk, db)
    }) {
      return unwritten
    }
    let relaxed = try store.relaxedWrite { db in
      try start(key, wanted, owner: owner, bytesOnDisk: bytesOnDisk, lowering: false, db)
    }
    if let relaxed { return relaxed }
    guard
      let durable = try store.write({ db in
        try start(key, wanted, owner: owner, bytesOnDisk: bytesOnDisk, lowering: true, db)
      })
    else { throw LibraryError.illegalDownloadMove(url: key.text, move: "begin", from: nil) }
    return durable
  }

  /// `start` for a row this process queued and has nothing of on disk (a sync's new
  /// episodes): the begin is decided on a read and left unwritten, for the download's first
  /// write (its head, progress, how it stopped, or the finish batch's commit) to carry in the
  /// same transaction. Until then the row shows queued, by this live process, as it did a
  /// moment before; the partial file's lock keeps any other process off it all the same. A
  /// write transaction per download was 8.5% of a 2,000-feed first sync's CPU; these reads,
  /// on the writer's warm connection, are 5.9%. Nil: `start` writes the begin at once.
  private func startUnwritten(
    _ key: DownloadKey, _ wanted: QueuedDownload, owner: ProcessOwner, bytesOnDisk: Int64,
    _ db: Database
  ) throws -> Start? {
    guard owner == .current, bytesOnDisk == 0 else { return nil }
    // The rows fetched from this link hold the one keyed `key` (queued with the link it is
    // fetched from): one read for both.
    let byURL = try DownloadRecordRow.all(db, url: wanted.url).map(\.record)
    guard
      let current = try byURL.first(where: { $0.key == key })
        ?? DownloadRecordRow.find(db, key: key)?.record,
      current.state == .queued, current.owner == owner, current.durableBytes == 0
    else { return nil }
    if let finished = try FinishedDownloads.find(
      db, url: wanted.url, keys: wanted.identityKeys, feedURL: wanted.feedURL, show: wanted.show,
      byURL: byURL),
      let file = finished.file
    {
      return .alreadyHere(finished, file: file)
    }
    let begin = DownloadTransition.begin(wanted, owner: owner, bytesOnDisk: bytesOnDisk)
    guard case .write(let begun) = try outcome(of: begin, on: current, key: key) else {
      return nil
    }
    return .begun(begun, unwritten: begin)
  }

  /// `start`'s transaction; nil (having written nothing) when the begin would lower the
  /// durable length and `lowering` does not allow it.
  private func start(
    _ key: DownloadKey, _ wanted: QueuedDownload, owner: ProcessOwner, bytesOnDisk: Int64,
    lowering: Bool, _ db: Database
  ) throws -> Start? {
    let current = try DownloadRecordRow.find(db, key: key)?.record
    if let current, Self.hasFile(current), let file = current.file {
      return .alreadyHere(current, file: file)
    }
    if let finished = try FinishedDownloads.find(
      db, url: wanted.url, keys: wanted.identityKeys, feedURL: wanted.feedURL, show: wanted.show),
      let file = finished.file
    {
      return .alreadyHere(finished, file: file)
    }
    guard let current else {
      throw LibraryError.illegalDownloadMove(url: key.text, move: "begin", from: nil)
    }
    if current.durableBytes > bytesOnDisk && !lowering { return nil }
    guard
      let begun = try perform(
        .begin(wanted, owner: owner, bytesOnDisk: bytesOnDisk), on: current, key: key, db)
    else {
      throw LibraryError.illegalDownloadMove(url: key.text, move: "begin", from: nil)
    }
    return .begun(begun, unwritten: nil)
  }

  /// The download keyed `key`, if any.
  public func find(key: DownloadKey) throws -> DownloadRecord? {
    try store.lookup { db in try DownloadRecordRow.find(db, key: key)?.record }
  }

  /// One move of the row keyed `key` (see `DownloadTransition`); returns the row after it.
  /// What a running download writes (its start, head, progress, how it stopped) is relaxed
  /// (see `LibraryStore.relaxedWrite`): none of it vouches for bytes that are durable, and a row that lost
  /// its latest save to a power cut is one the downloader already copes with (an older or
  /// missing validator restarts the file or makes the server send it whole, a `downloading`
  /// row of a dead process is paused, bytes past `durableBytes` are not trusted after a
  /// reboot). So is a queue, which vouches for no bytes either (see `queue(_:)`). Every
  /// other move is a full write: a checkpoint vouches for synced bytes, the finish
  /// (`recordFinished`) is what lets the partial file go, and the fsync of each also makes
  /// every earlier relaxed save durable, in order. `durably` makes any move a full write: one
  /// that lowers `durableBytes` must be on disk before the bytes it no longer vouches for are
  /// written over.
  @discardableResult
  package func transition(
    _ key: DownloadKey, _ transition: DownloadTransition, durably: Bool = false,
    after unwritten: DownloadTransition? = nil
  ) throws -> DownloadRecord? {
    let relaxed: Bool
    switch transition {
    case .queue, .begin, .progress, .pause, .fail: relaxed = !durably
    case .checkpoint, .finish, .relink, .forget: relaxed = false
    }
    let body = { (db: Database) throws -> DownloadRecord? in
      try perform(transition, after: unwritten, key: key, db)
    }
    return relaxed ? try store.relaxedWrite(body) : try store.write(body)
  }

  /// The episode's link changed: the row keyed `key` (and the subscription's episode `seen`,
  /// when sync asks) moves to `url` in one transaction, validators and all, so the next
  /// request resumes the partial file with `Range` and `If-Range` and the server decides
  /// whether it is the same file. Returns the row after it: at its old link still when another
  /// process is fetching it now, or it is done.
  @discardableResult
  public func relink(_ key: DownloadKey, to url: String, seen: SeenEpisode? = nil)
    throws -> DownloadRecord?
  {
    try store.write { db in
      let moved = try perform(.relink(url: url), key: key, db)
      if let seen, moved?.url == url {
        try SeenEpisodeRow.filter(
          Column("subscriptionId") == seen.subscriptionId && Column("key") == seen.key
        ).updateAll(db, Column("enclosureURL").set(to: url))
      }
      return moved
    }
  }

  /// The download keyed `key` is finished: its row says done, and the subscription's episode
  /// (sync) points at the file, in one transaction, so a kill never leaves one without the
  /// other. `progress`: what the last response said, kept in memory until now.
  @discardableResult
  package func recordFinished(
    _ key: DownloadKey, file: String, bytes: Int64, progress: DownloadProgress? = nil,
    episode: SubscriptionEpisode?, after unwritten: DownloadTransition? = nil
  ) throws -> DownloadRecord? {
    try store.write { db in
      try finish(
        FinishedDownload(
          key: key, file: file, bytes: bytes, progress: progress, episode: episode,
          unwritten: unwritten), db)
    }
  }

  /// A finish batch's downloads, each recorded as `recordFinished` would, in one durable
  /// commit: one WAL sync for the batch instead of one per episode. Each may have its own
  /// savepoint, so one whose move is refused (another process finished it meanwhile) is told
  /// apart and the rest are recorded all the same; the results are in `downloads`' order.
  /// Throws when the commit itself fails, and then none of them is recorded.
  ///
  /// A refusal is rare, so the batch is first recorded in one savepoint, and only when one of
  /// them fails is that undone and each recorded in a savepoint of its own: a savepoint and
  /// its release per episode were half of the batch's statements.
  package func recordFinished(_ downloads: [FinishedDownload]) throws -> [Result<
    DownloadRecord?, LibraryError
  >] {
    try store.write { db in
      if downloads.count > 1,
        let all = try? db.savepoint({ (try downloads.map { try finish($0, db) }, true) })
      {
        return all.map { .success($0) }
      }
      return downloads.map { download in
        do {
          return .success(
            try store.guarded { try db.savepoint { (try finish(download, db), true) } })
        } catch {
          return .failure(LibraryError(error))
        }
      }
    }
  }

  /// The row says done and the subscription's episode points at the file (one finish).
  private func finish(_ download: FinishedDownload, _ db: Database) throws -> DownloadRecord? {
    let finished = try perform(
      .finish(file: download.file, bytes: download.bytes, download.progress),
      after: download.unwritten, key: download.key, db)
    try Self.setDownloadedFile(download.file, of: download.episode, db)
    return finished
  }

  /// The episode turned out to be here already, as `finished`: the subscription's episode
  /// (sync) learns its file, and the row this run queued it under (`superseding`, when not
  /// `finished` itself: `download` fetched it before the feed moved it) goes in the same
  /// transaction, or it would wait, paused, on every later run.
  public func recordAlreadyDownloaded(
    _ finished: DownloadRecord, episode: SubscriptionEpisode?, superseding key: DownloadKey
  ) throws {
    guard episode != nil || finished.key != key, let file = finished.file else { return }
    try store.write { db in
      try Self.setDownloadedFile(file, of: episode, db)
      if finished.key != key { try perform(.forget(.superseded), key: key, db) }
    }
  }

  private static func setDownloadedFile(
    _ file: String, of episode: SubscriptionEpisode?, _ db: Database
  ) throws {
    guard let episode else { return }
    // A subscription removed while its episode downloaded has no row to update.
    try db.cachedStatement(
      sql: "UPDATE episodes SET downloadedFile = ? WHERE subscriptionId = ? AND key = ?"
    ).run([.text(file), .integer(episode.subscriptionId), .text(episode.key)])
  }

  /// Forgets the finished downloads of files that were pruned or deleted.
  public func forgetFinished(files: [String]) throws {
    guard !files.isEmpty else { return }
    try store.write { db in
      try forget(.files(files), as: .finished, db)
    }
  }
}
