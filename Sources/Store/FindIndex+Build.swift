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

    public init() {}
  }

  /// The side files beside an episode's audio file (transcripts, chapters): the layer that
  /// knows their names supplies it.
  public typealias SideFileReader = @Sendable (_ episodeFile: String) -> [String]

  /// Builds the index subscription by subscription, each in its own short transaction, so
  /// syncs and downloads go on meanwhile (writes keep the index only for the subscriptions
  /// the build has passed, `keepsIndex`) and a build cut short goes on where it stopped at
  /// the next. `rebuilding`: start over even when the index covers the library
  /// (`find --rebuild`); otherwise only an unbuilt index is built, and nil says there was
  /// nothing to do (another process built it meanwhile). `progress` hears (done, total)
  /// podcasts as it goes.
  ///
  /// Each episode's title and notes come from the subscription's kept feed (every page of
  /// it), its chapters and transcript from the files beside its audio (`sideFiles`). A
  /// rebuild moves the old index aside and reads only its text (never its FTS5 structures,
  /// which may be what is damaged): what neither source has any more (an episode the feed
  /// dropped, one whose files were deleted) keeps what the old index held.
  public func build(
    rebuilding: Bool, sideFiles: SideFileReader, progress: (Int, Int) -> Void = { _, _ in }
  ) throws -> BuildSummary? {
    // One builder at a time; a second `find` waits here, then finds the work done.
    let lock = try LibraryLock.acquire(file: store.paths.database + ".find-lock", wait: true)
    defer { lock.release() }
    if rebuilding {
      try moveAside()
    } else if try readiness() == .ready {
      return nil
    }
    var summary = BuildSummary()
    let (through, all) = try store.read { db in
      (
        try Int64.fetchOne(db, sql: "SELECT through FROM findState WHERE id = 1") ?? 0,
        try Int64.fetchAll(db, sql: "SELECT id FROM subscriptions ORDER BY id")
      )
    }
    var waiting = all.filter { $0 > through }[...]
    var done = all.count - waiting.count
    progress(done, all.count)
    while !waiting.isEmpty {
      // Subscriptions a few MB of text at a time, a transaction each: FTS5 writes what a
      // transaction indexed as a segment of its own and merges segments as they pile up, so
      // one per subscription (2,000 of them) was most of a rebuild's work; a second's worth
      // keeps a sync waiting to write waiting no longer than that.
      let started = Date()
      try store.relaxedWrite { db in
        var bytes: Int64 = 0
        while let id = waiting.first, bytes < Self.batchBytes,
          Date().timeIntervalSince(started) < 1
        {
          let counted = try rebuild(subscriptionId: id, sideFiles: sideFiles, db)
          try db.cachedStatement(sql: "UPDATE findState SET through = ? WHERE id = 1").run([
            .integer(id)
          ])
          waiting.removeFirst()
          bytes += counted.textBytes
          summary.podcasts += 1
          summary.episodes += counted.episodes
          summary.textBytes += counted.textBytes
          done += 1
          progress(done, all.count)
        }
      }
    }
    try store.write { db in
      try db.execute(
        sql: """
          UPDATE findState SET built = 1, through = 0 WHERE id = 1;
          DROP TABLE IF EXISTS findTextOld;
          DROP TABLE IF EXISTS findSourcesOld;
          """)
    }
    try merge()
    (summary.indexBytes, summary.storedTextBytes) = try sizes()
    return summary
  }

  /// About how much text one transaction of a build indexes.
  static let batchBytes: Int64 = 8 << 20

  /// Starts a rebuild: the index's tables renamed `…Old` and new empty ones made, in one
  /// transaction, the index unbuilt. A rebuild cut short left old ones: those stay (they are
  /// the index as it was), and the new ones, part built, are made again.
  private func moveAside() throws {
    try store.write { db in
      let hadOld = try db.tableExists("findTextOld")
      try db.execute(sql: "DROP TRIGGER IF EXISTS findForgetEpisode")
      if hadOld {
        try db.execute(sql: "DROP TABLE IF EXISTS findText; DROP TABLE IF EXISTS findSources")
      } else {
        if try db.tableExists("findText") {
          try db.execute(sql: "ALTER TABLE findText RENAME TO findTextOld")
        }
        if try db.tableExists("findSources") {
          try db.execute(sql: "ALTER TABLE findSources RENAME TO findSourcesOld")
        }
      }
      try LibrarySchema.createFindTables(db)
      try db.execute(sql: "UPDATE findState SET built = 0, through = 0 WHERE id = 1")
    }
  }

  /// What the index moved aside by a rebuild held of an episode, read from its text (the
  /// plain table FTS5 keeps it in), not its index; nil when there is none or it cannot be
  /// read.
  private static func previousRow(_ episodeId: Int64, _ db: Database) -> IndexRow? {
    guard (try? db.tableExists("findTextOld_content")) == true else { return nil }
    return try? db.cachedStatement(
      sql: """
        SELECT c.c0, c.c1, c.c2, c.c3, s.digest, s.chapterTimes, s.transcriptTimes, s.sideFiles,
          s.pruned
        FROM findTextOld_content c LEFT JOIN findSourcesOld s ON s.episodeId = c.id
        WHERE c.id = ?
        """
    ).first([.integer(episodeId)]) { row in
      func passages(_ text: Int32, _ times: Int32) -> PassageText? {
        guard let text = row.text(text), !text.isEmpty else { return nil }
        return PassageText(text: text, timeline: row.blob(times).map { [UInt8]($0) })
      }
      return IndexRow(
        episodeId: episodeId, title: row.text(0) ?? "", notes: row.text(2) ?? "",
        digest: row.integer(4), sideFiles: row.integer(7), pruned: row.integer(8) == 1,
        chapters: passages(1, 5), transcript: passages(3, 6))
    } ?? nil
  }

  /// One subscription's rows made again from its kept feed and the files on disk.
  private func rebuild(subscriptionId: Int64, sideFiles: SideFileReader, _ db: Database) throws
    -> (episodes: Int, textBytes: Int64)
  {
    let stored = try db.cachedStatement(
      sql: "SELECT \(SeenEpisodeRow.selection) FROM episodes WHERE subscriptionId = ? ORDER BY id"
    ).all([.integer(subscriptionId)]) { SeenEpisodeRow($0).episode }
    guard !stored.isEmpty else { return (0, 0) }
    let (listed, places) = try Self.keptEpisodes(subscriptionId: subscriptionId, db)
    try db.cachedStatement(
      sql: "INSERT OR REPLACE INTO findFeeds (subscriptionId, listed) VALUES (?, ?)"
    ).run([.integer(subscriptionId), .integer(places == nil ? 0 : 1)])
    // Files `download` fetched for the subscription's feed, by episode key: their rows in
    // `episodes` do not know them.
    var fetched: [String: String] = [:]
    try db.cachedStatement(
      sql: """
        SELECT d.episodeKey, d.file FROM downloads d JOIN subscriptions s ON s.feedURL = d.feedURL
        WHERE s.id = ? AND d.state = 'done' AND d.file IS NOT NULL AND d.episodeKey IS NOT NULL
        """
    ).run([.integer(subscriptionId)]) { row in
      if let key = row.text(0), let file = row.text(1) { fetched[key] = file }
    }
    var textBytes: Int64 = 0
    for episode in stored {
      guard let id = episode.id else { continue }
      // A row a write made since the rebuild began (a sync, a side file) is the newest.
      let current = try Self.row(id, db)
      let previous = current ?? Self.previousRow(id, db)
      let inFeed =
        listed[episode.key]
        ?? episode.identityKeys.lazy.compactMap { listed[$0] }.first
      var row = IndexRow(episodeId: id, title: "", notes: "", digest: nil)
      row.pruned = previous?.pruned ?? false
      row.feedIndex = places.flatMap { places in
        places[episode.key] ?? episode.identityKeys.lazy.compactMap { places[$0] }.first
      }
      if let inFeed {
        let text = FeedText(key: episode.key, title: inFeed.title, notes: inFeed.showNotes)
        row.title = IndexedText.clean(inFeed.title ?? episode.title ?? "", keepingLines: false)
        row.notes = text.notesText
        row.digest = text.digest
      } else {
        row.title = IndexedText.clean(episode.title ?? "", keepingLines: false)
        row.notes = previous?.notes ?? ""
      }
      let file =
        episode.downloadedFile ?? episode.identityKeys.lazy.compactMap { fetched[$0] }.first
      if let file, FileManager.default.fileExists(atPath: file) {
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
      if current != nil {
        try db.cachedStatement(sql: "DELETE FROM findText WHERE rowid = ?").run([.integer(id)])
      }
      try Self.insert(row, db)
      textBytes += Int64(row.textBytes)
    }
    return (stored.count, textBytes)
  }

  /// The episodes of the subscription's kept feed (every page), by each of their identity
  /// keys, the first listing of a key winning; none when no copy is kept or it cannot be
  /// read. With them, each key's index as `episodes` numbers it from the copy, when the copy
  /// is one page (a paged copy's are counted from it when asked, `FindIndex.FeedIndex`).
  private static func keptEpisodes(subscriptionId: Int64, _ db: Database) throws -> (
    [String: Episode], [String: Int64]?
  ) {
    guard
      let data = try db.cachedStatement(sql: "SELECT copy FROM keptFeeds WHERE subscriptionId = ?")
        .first([.integer(subscriptionId)], { $0.blob(0) }) ?? nil,
      let kept = try? KeptFeed(decoding: data), let pages = try? kept.pageFeeds()
    else { return ([:], nil) }
    var byKey: [String: Episode] = [:]
    var places: [String: Int64] = [:]
    for (page, feed) in pages.enumerated() {
      for (offset, episode) in feed.episodes.enumerated() {
        for key in EpisodeIdentity.identityKeys(
          guid: episode.guid, enclosureURL: episode.enclosure.url, title: episode.title,
          published: episode.published) where byKey[key] == nil
        {
          byKey[key] = episode
          if page == 0 { places[key] = Int64(offset + 1) }
        }
      }
    }
    return (byKey, pages.count == 1 ? places : nil)
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
