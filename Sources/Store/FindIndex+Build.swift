import Basics
import Feeds
import Foundation
import FullText
internal import GRDB
import Model

#if canImport(Glibc)
  import Glibc
#endif

/// Building the index from what the library keeps: `find --rebuild`, and the first `find` of
/// a library from before the index.
extension FindIndex {
  /// What a build indexed, and what the index costs.
  public struct BuildSummary: Sendable, Equatable {
    public var podcasts = 0
    public var episodes = 0
    /// Bytes of text indexed (titles, notes, chapters, transcripts).
    public var textBytes: Int64 = 0
    /// The index's own size on disk (its FTS5 structures and timelines), when SQLite can tell.
    public var indexBytes: Int64?
    /// The size of the text it keeps beside them, for snippets, when SQLite can tell.
    public var storedTextBytes: Int64?
    /// The index was damaged and made anew: what only it held (the notes of episodes their
    /// feed no longer lists, the transcripts of deleted episodes) is gone.
    public var madeAnew = false

    public init() {}
  }

  /// The side files beside an episode's audio file (transcripts, chapters): the layer that
  /// knows their names supplies it.
  public typealias SideFileReader = @Sendable (_ episodeFile: String) -> [String]

  /// Builds the index subscription by subscription, each in its own short transaction, so
  /// syncs and downloads go on meanwhile and a build cut short goes on where it stopped at
  /// the next. `rebuilding`: start over even when it covers the library (`find --rebuild`);
  /// otherwise only an unbuilt index is built, and nil says there was nothing to do (another
  /// process built it meanwhile). `progress` hears (done, total) podcasts as it goes.
  ///
  /// Each episode's title and notes come from the subscription's kept feed (every page of
  /// it), its chapters and transcript from the files beside its audio (`sideFiles`). What
  /// neither has any more (an episode the feed dropped, one whose files were deleted) keeps
  /// what the index held, unless the index was damaged (see `BuildSummary.madeAnew`).
  public func build(
    rebuilding: Bool, sideFiles: SideFileReader, progress: (Int, Int) -> Void = { _, _ in }
  ) throws -> BuildSummary? {
    // One builder at a time; a second `find` waits here, then finds the work done.
    let lock = try LibraryLock.acquire(file: store.paths.database + ".find-lock", wait: true)
    defer { lock.release() }
    var summary = BuildSummary()
    var carryOver = true
    if rebuilding {
      if try !intact() {
        try makeAnew()
        summary.madeAnew = true
        carryOver = false
      } else {
        try store.write { db in
          try db.execute(sql: "UPDATE findState SET built = 0, through = 0 WHERE id = 1")
        }
      }
    } else if try readiness() == .ready {
      return nil
    }
    let (through, all) = try store.read { db in
      (
        try Int64.fetchOne(db, sql: "SELECT through FROM findState WHERE id = 1") ?? 0,
        try Int64.fetchAll(db, sql: "SELECT id FROM subscriptions ORDER BY id")
      )
    }
    let waiting = all.filter { $0 > through }
    var done = all.count - waiting.count
    progress(done, all.count)
    for id in waiting {
      let counted = try store.relaxedWrite { db in
        try rebuild(subscriptionId: id, carryOver: carryOver, sideFiles: sideFiles, db)
      }
      summary.podcasts += 1
      summary.episodes += counted.episodes
      summary.textBytes += counted.textBytes
      done += 1
      progress(done, all.count)
    }
    try store.write { db in
      try db.execute(sql: "UPDATE findState SET built = 1, through = 0 WHERE id = 1")
    }
    try merge()
    (summary.indexBytes, summary.storedTextBytes) = try sizes()
    return summary
  }

  /// FTS5's own check of the index against the text it holds; false when it fails.
  private func intact() throws -> Bool {
    do {
      try store.write { db in
        guard try Self.hasIndex(db) else { return }
        try db.execute(sql: "INSERT INTO findText (findText, rank) VALUES ('integrity-check', 1)")
      }
      return true
    } catch LibraryError.databaseFailed {
      return false
    }
  }

  /// The index's tables dropped and made again, empty and unbuilt.
  private func makeAnew() throws {
    try store.write { db in
      try db.execute(
        sql: """
          DROP TRIGGER IF EXISTS findForgetEpisode;
          DROP TABLE IF EXISTS findText;
          DROP TABLE IF EXISTS findSources;
          DROP TABLE IF EXISTS findState;
          """)
      try LibrarySchema.addFindIndex(db)
      try db.execute(sql: "UPDATE findState SET built = 0, through = 0 WHERE id = 1")
    }
  }

  /// One subscription's rows made again from its kept feed and the files on disk.
  private func rebuild(
    subscriptionId: Int64, carryOver: Bool, sideFiles: SideFileReader, _ db: Database
  ) throws -> (episodes: Int, textBytes: Int64) {
    defer {
      try? db.cachedStatement(sql: "UPDATE findState SET through = ? WHERE id = 1").run([
        .integer(subscriptionId)
      ])
    }
    let stored = try db.cachedStatement(
      sql: "SELECT \(SeenEpisodeRow.selection) FROM episodes WHERE subscriptionId = ? ORDER BY id"
    ).all([.integer(subscriptionId)]) { SeenEpisodeRow($0).episode }
    guard !stored.isEmpty else { return (0, 0) }
    let listed = try Self.keptEpisodes(subscriptionId: subscriptionId, db)
    var textBytes: Int64 = 0
    for episode in stored {
      guard let id = episode.id else { continue }
      let previous = carryOver ? try Self.row(id, db) : nil
      let inFeed =
        listed[episode.key]
        ?? episode.identityKeys.lazy.compactMap { listed[$0] }.first
      var row = IndexRow(episodeId: id, title: "", notes: "", digest: nil)
      if let inFeed {
        let text = FeedText(key: episode.key, title: inFeed.title, notes: inFeed.showNotes)
        row.title = IndexedText.clean(inFeed.title ?? episode.title ?? "", keepingLines: false)
        row.notes = text.notesText
        row.digest = text.digest
      } else {
        row.title = IndexedText.clean(episode.title ?? "", keepingLines: false)
        row.notes = previous?.notes ?? ""
      }
      if let file = episode.downloadedFile, FileManager.default.fileExists(atPath: file) {
        let paths = sideFiles(file)
        let side = SideFileText.read(sideFiles: paths)
        row.chapters = side.chapters
        row.transcript = side.transcript
        row.sideFiles = SideFileText.signature(of: paths)
      } else {
        row.chapters = previous?.chapters
        row.transcript = previous?.transcript
        row.sideFiles = previous?.sideFiles
      }
      if previous != nil {
        try db.cachedStatement(sql: "DELETE FROM findText WHERE rowid = ?").run([.integer(id)])
      }
      try Self.insert(row, db)
      textBytes += Int64(row.textBytes)
    }
    return (stored.count, textBytes)
  }

  /// The episodes of the subscription's kept feed (every page), by each of their identity
  /// keys, the first listing of a key winning; none when no copy is kept or it cannot be read.
  private static func keptEpisodes(subscriptionId: Int64, _ db: Database) throws -> [String:
    Episode]
  {
    guard
      let data = try db.cachedStatement(sql: "SELECT copy FROM keptFeeds WHERE subscriptionId = ?")
        .first([.integer(subscriptionId)], { $0.blob(0) }) ?? nil,
      let kept = try? KeptFeed(decoding: data), let pages = try? kept.pageFeeds()
    else { return [:] }
    var byKey: [String: Episode] = [:]
    for page in pages {
      for episode in page.episodes {
        for key in EpisodeIdentity.identityKeys(
          guid: episode.guid, enclosureURL: episode.enclosure.url, title: episode.title,
          published: episode.published) where byKey[key] == nil
        {
          byKey[key] = episode
        }
      }
    }
    return byKey
  }

  /// Merges the index's segments a step at a time, each step a short transaction of its own,
  /// until FTS5 has nothing left to merge: a freshly built index answers faster merged, and a
  /// sync waiting to write waits for one step at most.
  private func merge() throws {
    for _ in 0..<10_000 {
      let worked = try store.relaxedWrite { db -> Bool in
        let before = db.totalChangesCount
        try db.execute(sql: "INSERT INTO findText (findText, rank) VALUES ('merge', 500)")
        return db.totalChangesCount - before > 1
      }
      if !worked { return }
    }
  }

  /// The index's size on disk and that of the text it keeps, from SQLite's `dbstat` table
  /// (nil where this SQLite has none).
  public func sizes() throws -> (index: Int64?, text: Int64?) {
    do {
      return try store.read { db in
        let rows = try Row.fetchAll(
          db,
          sql: """
            SELECT name, sum(pgsize) FROM dbstat
            WHERE name LIKE 'findText%' OR name = 'findSources' GROUP BY name
            """)
        var index: Int64 = 0
        var text: Int64 = 0
        for row in rows {
          let name: String = row[0]
          let size: Int64 = row[1] ?? 0
          if name == "findText_content" { text += size } else { index += size }
        }
        return (index, text)
      }
    } catch {
      return (nil, nil)
    }
  }
}
