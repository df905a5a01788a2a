import Basics
import Feeds
import Foundation
import FullText
internal import GRDB
import Model

/// The library's full-text index (`find`): every episode of every subscription, its title and
/// show notes from the feed, and the chapters and transcript of a downloaded one, in the FTS5
/// table `findText` (see `LibrarySchema.addFindIndex`).
///
/// Kept in step by the writes that change what it covers, in their own transactions: a
/// feed's record (`record(_:subscriptionId:_:)`, new episodes and changed notes), a side
/// file's arrival (`indexSideFiles`), and an episode's removal (a trigger). A deleted or
/// pruned episode keeps its row, transcript included: it stays findable, as `deleted`.
/// A library from before the index, or one whose build was cut short, is built by `build`.
public struct FindIndex: Sendable {
  let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  // MARK: - Searching

  public enum Readiness: Sendable, Equatable {
    /// The index covers the library.
    case ready
    /// It covers part of it or none (a library from before it, a build cut short): it has to
    /// be built before it is searched.
    case unbuilt
    /// The library was written by a version without it, and is open for reading only.
    case absent
  }

  public func readiness() throws -> Readiness {
    try store.read { db in
      guard try db.tableExists("findState") else { return .absent }
      let built = try Int.fetchOne(db, sql: "SELECT built FROM findState WHERE id = 1")
      return built == 1 ? .ready : .unbuilt
    }
  }

  /// What narrows a search beside the query.
  public struct Filter: Sendable, Equatable {
    public var subscriptionId: Int64?
    /// Where to look; nil: everywhere.
    public var fields: Set<FindField>?
    /// Published at or after.
    public var since: Date?
    /// Published before.
    public var until: Date?
    /// Only episodes the library downloaded (their file may be gone since: the caller checks).
    public var downloaded = false

    public init(
      subscriptionId: Int64? = nil, fields: Set<FindField>? = nil, since: Date? = nil,
      until: Date? = nil, downloaded: Bool = false
    ) {
      self.subscriptionId = subscriptionId
      self.fields = fields
      self.since = since
      self.until = until
      self.downloaded = downloaded
    }
  }

  /// An episode's index as `episodes` numbers it, as far as the index knows.
  public enum FeedIndex: Sendable, Equatable {
    /// Its place in the feed the library keeps; nil when the feed no longer lists it.
    case known(Int?)
    /// Not kept for its subscription (a paged feed a sync read in part): count it from the
    /// kept copy.
    case unknown
  }

  /// One episode found.
  public struct Hit: Sendable {
    public var episode: SeenEpisode
    /// BM25 with the fields' weights: higher is better.
    public var score: Double
    /// Its index as `episodes` numbers it, when the index keeps it for its subscription.
    public var index: FeedIndex
    /// Retention removed its file: the library had it.
    public var pruned: Bool
    /// The title with the query's words marked, when it holds any.
    public var title: Snippet?
    /// Up to three places the words are, best first by field and time (`MomentFinder.pick`).
    public var moments: [Moment]
  }

  /// The ranking: BM25 of the title on its own, weighted 10, plus BM25 of the other fields
  /// together (chapters 5, notes 2, transcripts 1). FTS5's `bm25()` multiplies each field's
  /// count of a word by its weight before it saturates the sum, so in one `bm25()` a word said
  /// 300 times in an hour of transcript outscored a title that is that word; the title scored
  /// on its own ranks a title hit above any other. Among the rest the weights order a
  /// chapter's hit above the notes', the notes' above a transcript's at equal counts. (Each
  /// field on its own would cost four `bm25()` a row: a word in most episodes took 0.18 s
  /// of CPU to rank against 0.14 s so, on 100,000 episodes.) Negative, as `bm25()` is: lower
  /// is better.
  static let score =
    "10.0 * bm25(findText, 1.0, 0.0, 0.0, 0.0) + bm25(findText, 0.0, 5.0, 2.0, 1.0)"

  /// The best `limit` episodes for `query`, best first, each with its moments. Read in one
  /// snapshot. An empty query finds nothing.
  public func search(_ query: FindQuery, filter: Filter = Filter(), limit: Int) throws -> [Hit] {
    guard let expression = query.expression(in: filter.fields), limit > 0 else { return [] }
    return try store.read { db in
      // The full-text match drives (CROSS JOIN keeps it the outer loop): it is the selective
      // part; the episode's row is then one lookup by id.
      var sql = """
        SELECT e.id, e.subscriptionId, e.key, e.guid, e.enclosureURL, e.title, e.published,
          e.firstSeen, e.downloadedFile, \(Self.score) AS score, s.feedIndex, f.listed, s.pruned
        FROM findText CROSS JOIN episodes e ON e.id = findText.rowid
        LEFT JOIN findSources s ON s.episodeId = e.id
        LEFT JOIN findFeeds f ON f.subscriptionId = e.subscriptionId
        WHERE findText MATCH ?
        """
      var values: [SQLValue] = [.text(expression)]
      if let id = filter.subscriptionId {
        sql += " AND e.subscriptionId = ?"
        values.append(.integer(id))
      }
      if let since = filter.since {
        sql += " AND e.published >= ?"
        values.append(SQLValue(since))
      }
      if let until = filter.until {
        sql += " AND e.published < ?"
        values.append(SQLValue(until))
      }
      if filter.downloaded {
        // Fetched by sync (the episode's row knows its file) or by `download` (a finished
        // download of the subscription's feed under the episode's key).
        sql += """
           AND (e.downloadedFile IS NOT NULL OR EXISTS (
            SELECT 1 FROM downloads d JOIN subscriptions s ON s.id = e.subscriptionId
            WHERE d.episodeKey = e.key AND d.feedURL = s.feedURL AND d.state = 'done'))
          """
      }
      sql += " ORDER BY score LIMIT ?"
      values.append(.integer(Int64(limit)))
      let found = try db.makeStatement(sql: sql).all(values) { row in
        (
          SeenEpisodeRow(row).episode, -(row.double(9) ?? 0),
          row.integer(11) == 1
            ? FeedIndex.known(row.integer(10).map { Int($0) }) : FeedIndex.unknown,
          row.integer(12) == 1
        )
      }
      return try found.map { episode, score, index, pruned in
        var hit = Hit(
          episode: episode, score: score, index: index, pruned: pruned, title: nil, moments: [])
        if let id = episode.id {
          (hit.title, hit.moments) = try moments(of: id, expression: expression, db)
        }
        return hit
      }
    }
  }

  /// Where the query's words are in the episode's fields: the marked title, and the best
  /// moments of the others (the title too when fewer than three others hold a word).
  private func moments(of episodeId: Int64, expression: String, _ db: Database) throws
    -> (Snippet?, [Moment])
  {
    let marks = "?, ?"
    let columns = FindField.allCases.map { "highlight(findText, \($0.column), \(marks))" }
    let statement = try db.cachedStatement(
      sql: """
        SELECT \(columns.joined(separator: ", ")), s.chapterTimes, s.transcriptTimes
        FROM findText LEFT JOIN findSources s ON s.episodeId = findText.rowid
        WHERE findText MATCH ? AND findText.rowid = ?
        """)
    let open = SQLValue.text(Highlight.open)
    let close = SQLValue.text(Highlight.close)
    let marked = try statement.first(
      Array(repeating: [open, close], count: 4).flatMap { $0 }
        + [.text(expression), .integer(episodeId)]
    ) { row in
      (
        FindField.allCases.map { Highlight(marked: row.text(Int32($0.column)) ?? "") },
        row.blob(4).map { [UInt8]($0) }, row.blob(5).map { [UInt8]($0) }
      )
    }
    guard let (highlights, chapterTimes, transcriptTimes) = marked else { return (nil, []) }
    var others: [Moment] = []
    var title: [Moment] = []
    for field in FindField.allCases {
      let highlight = highlights[field.column]
      let timeline: [UInt8]? =
        switch field {
        case .chapters: chapterTimes
        case .transcripts: transcriptTimes
        case .title, .notes: nil
        }
      let found = MomentFinder.candidates(
        field: field, highlight: highlight,
        passages: timeline.map { PassageText(text: highlight.text, timeline: $0) })
      if field == .title { title = found } else { others += found }
    }
    var picked = MomentFinder.pick(others)
    if picked.count < 3, let first = title.first { picked.insert(first, at: 0) }
    return (title.first?.snippet, picked)
  }

  // MARK: - Keeping it in step

  /// Indexes what a feed says of the subscription's episodes (`feed`, under their identity
  /// keys): the episodes not indexed yet, and those whose title or notes changed since they
  /// were (by digest); and, when the feed is the listing `episodes` shows, each episode's
  /// index. Part of the transaction that records the feed's episodes.
  ///
  /// `keeping`: what `keeping(_:)` read in the same transaction, for a round of many feeds;
  /// read here when not given.
  static func record(
    _ feed: FeedTexts, subscriptionId: Int64, keeping: Keeping? = nil, _ db: Database
  ) throws {
    guard try (keeping ?? Self.keeping(db)).keeps(subscriptionId) else { return }
    struct Known {
      var id: Int64
      var title: String?
      var digest: Int64?
      var hasRow: Bool
      var index: Int64?
    }
    var indexed: [String: Known] = [:]
    try db.cachedStatement(
      sql: """
        SELECT e.key, e.id, e.title, s.digest, s.episodeId IS NOT NULL, s.feedIndex FROM episodes e
        LEFT JOIN findSources s ON s.episodeId = e.id WHERE e.subscriptionId = ?
        """
    ).run([.integer(subscriptionId)]) { row in
      indexed[row.text(0) ?? ""] = Known(
        id: row.rowID(1), title: row.text(2), digest: row.integer(3), hasRow: row.integer(4) == 1,
        index: row.integer(5))
    }
    let isListing = feed.isListing && !feed.texts.isEmpty
    var places: [String: Int64] = [:]
    if isListing {
      for (offset, text) in feed.texts.enumerated() where places[text.key] == nil {
        places[text.key] = Int64(offset + 1)
      }
    }
    for text in feed.texts {
      guard var known = indexed[text.key] else { continue }
      let digest = text.digest
      guard known.digest != digest || !known.hasRow else { continue }
      let title = IndexedText.clean(text.title ?? "", keepingLines: false)
      if known.hasRow {
        try db.cachedStatement(sql: "UPDATE findText SET title = ?, notes = ? WHERE rowid = ?")
          .run([.text(title), .text(text.notesText), .integer(known.id)])
        try db.cachedStatement(sql: "UPDATE findSources SET digest = ? WHERE episodeId = ?")
          .run([.integer(digest), .integer(known.id)])
      } else {
        var row = IndexRow(episodeId: known.id, title: title, notes: text.notesText, digest: digest)
        row.feedIndex = places[text.key]
        try insert(row, db)
        known.index = row.feedIndex
      }
      // Once per key: a feed listing an episode twice indexes it once.
      known.digest = digest
      known.hasRow = true
      indexed[text.key] = known
    }
    // Episodes recorded without their feed's words (or before a build reached them): their
    // titles, so that every episode is found by its title at least; the next time their feed
    // is read gives them the rest.
    for (key, known) in indexed where !known.hasRow {
      try insert(
        IndexRow(
          episodeId: known.id, title: IndexedText.clean(known.title ?? "", keepingLines: false),
          notes: "", digest: nil, feedIndex: places[key]), db)
      indexed[key]?.hasRow = true
      indexed[key]?.index = places[key]
    }
    guard !feed.texts.isEmpty else { return }
    try db.cachedStatement(
      sql: "INSERT OR REPLACE INTO findFeeds (subscriptionId, listed) VALUES (?, ?)"
    ).run([.integer(subscriptionId), .integer(isListing ? 1 : 0)])
    guard isListing else { return }
    // The places that moved (one new episode moves every other one down); gone from the feed,
    // no place.
    let move = try db.cachedStatement(
      sql: "UPDATE findSources SET feedIndex = ? WHERE episodeId = ?")
    for (key, known) in indexed where known.index != places[key] {
      try move.run([SQLValue(places[key]), .integer(known.id)])
    }
  }

  /// Indexes the chapters and transcript beside a subscription's downloaded episode:
  /// `sideFiles` are the paths they may have beside its audio. The episode is the one `episode`
  /// names (sync's downloads know it), else the one of the subscription to `feedURL` known by
  /// one of `identityKeys` (a `download` of a subscribed feed); none, and nothing is indexed.
  ///
  /// Called when side files arrive, and when a sync looks at those of a downloaded episode:
  /// files that changed since they were indexed (by name, size and time), or whose indexing a
  /// cut lost, are read again; others cost a lookup. The files are read inside the
  /// transaction, so a rebuild running at the same time either sees them or is overwritten.
  package func indexSideFiles(
    of episode: SubscriptionEpisode?, feedURL: String?, identityKeys: [String],
    sideFiles paths: [String]
  ) throws {
    let signature = SideFileText.signature(of: paths)
    enum Known {
      case notKept, unindexed
      case indexed(Int64?)
    }
    let known = try store.lookup { db -> Known in
      guard
        let found = try Self.episode(episode, feedURL: feedURL, identityKeys: identityKeys, db),
        try Self.keepsIndex(subscriptionId: found.subscriptionId, db)
      else { return .notKept }
      let stored = try db.cachedStatement(
        sql: "SELECT sideFiles FROM findSources WHERE episodeId = ?"
      ).first([.integer(found.id)]) { $0.integer(0) }
      return stored.map { .indexed($0) } ?? .unindexed
    }
    switch known {
    case .notKept: return
    case .indexed(let stored) where stored == signature: return
    case .indexed, .unindexed: break
    }
    try store.relaxedWrite { db in
      guard
        let found = try Self.episode(episode, feedURL: feedURL, identityKeys: identityKeys, db),
        try Self.keepsIndex(subscriptionId: found.subscriptionId, db)
      else { return }
      let current = try Self.row(found.id, db)
      var row =
        current
        ?? IndexRow(
          episodeId: found.id, title: IndexedText.clean(found.title ?? "", keepingLines: false),
          notes: "", digest: nil)
      let side = SideFileText.read(sideFiles: paths)
      row.chapters = side.chapters
      row.transcript = side.transcript
      row.sideFiles = SideFileText.signature(of: paths)
      guard row != current else { return }
      if current != nil {
        try db.cachedStatement(sql: "DELETE FROM findText WHERE rowid = ?").run([
          .integer(found.id)
        ])
      }
      try Self.insert(row, db)
    }
  }

  /// Notes that retention removed the file of the subscription's episode keyed `key`: it is
  /// listed as `deleted` from then on. Part of the transaction that forgets the file.
  static func recordPruned(subscriptionId: Int64, key: String, _ db: Database) throws {
    guard try hasIndex(db) else { return }
    try db.cachedStatement(
      sql: """
        UPDATE findSources SET pruned = 1
        WHERE episodeId = (SELECT id FROM episodes WHERE subscriptionId = ? AND key = ?)
        """
    ).run([.integer(subscriptionId), .text(key)])
  }

  /// The episode row `episode` names, else the one of the subscription to `feedURL` that one
  /// of `identityKeys` is the key of.
  private static func episode(
    _ episode: SubscriptionEpisode?, feedURL: String?, identityKeys: [String], _ db: Database
  ) throws -> (id: Int64, subscriptionId: Int64, title: String?)? {
    if let episode {
      return try db.cachedStatement(
        sql: "SELECT id, title FROM episodes WHERE subscriptionId = ? AND key = ?"
      ).first([.integer(episode.subscriptionId), .text(episode.key)]) {
        ($0.rowID(0), episode.subscriptionId, $0.text(1))
      }
    }
    guard let feedURL else { return nil }
    let statement = try db.cachedStatement(
      sql: """
        SELECT e.id, e.subscriptionId, e.title FROM episodes e
        JOIN subscriptions s ON s.id = e.subscriptionId WHERE s.feedURL = ? AND e.key = ?
        """)
    for key in identityKeys {
      if let found = try statement.first(
        [.text(feedURL), .text(key)],
        {
          ($0.rowID(0), $0.rowID(1), $0.text(2))
        })
      {
        return found
      }
    }
    return nil
  }

  /// Whether writes keep the index for the subscription: the index is built, or a build has
  /// gone past the subscription. Where it has not, the build will read what is written now,
  /// so an old library's syncs before its first `find` cost nothing here.
  static func keepsIndex(subscriptionId: Int64, _ db: Database) throws -> Bool {
    try keeping(db).keeps(subscriptionId)
  }

  /// How far writes keep the index (`keepsIndex`), as read once: a sync's record round asks
  /// it of every feed in one transaction, where no other process can change it.
  struct Keeping {
    var built = false
    var through: Int64 = -1

    func keeps(_ subscriptionId: Int64) -> Bool { built || through >= subscriptionId }
  }

  static func keeping(_ db: Database) throws -> Keeping {
    guard try hasIndex(db) else { return Keeping() }
    return try db.cachedStatement(sql: "SELECT built = 1, through FROM findState WHERE id = 1")
      .first([]) { Keeping(built: $0.integer(0) == 1, through: $0.integer(1) ?? -1) }
      ?? Keeping()
  }

  /// Whether this library has the index's tables: a library opened before its migration ran
  /// has not, and an SQLite without FTS5 could not make them.
  static func hasIndex(_ db: Database) throws -> Bool {
    try db.cachedStatement(
      sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'findSources'"
    ).first([]) { _ in true } ?? false
  }

  /// An episode's row of the index, as stored.
  struct IndexRow: Equatable {
    var episodeId: Int64
    var title: String
    var notes: String
    var digest: Int64?
    /// Of the side files the chapters and transcript were read from (`SideFileText.signature`).
    var sideFiles: Int64?
    /// The episode's index as `episodes` numbers it; nil when the feed no longer lists it, or
    /// the subscription's indexes are not kept (`findFeeds`).
    var feedIndex: Int64?
    /// Retention removed its file.
    var pruned = false
    var chapters: PassageText?
    var transcript: PassageText?

    /// Bytes of text it holds.
    var textBytes: Int {
      title.utf8.count + notes.utf8.count + (chapters?.text.utf8.count ?? 0)
        + (transcript?.text.utf8.count ?? 0)
    }
  }

  static func row(_ episodeId: Int64, _ db: Database) throws -> IndexRow? {
    try db.cachedStatement(
      sql: """
        SELECT f.title, f.chapters, f.notes, f.transcripts, s.digest, s.chapterTimes,
          s.transcriptTimes, s.sideFiles, s.feedIndex, s.pruned
        FROM findText f LEFT JOIN findSources s ON s.episodeId = f.rowid WHERE f.rowid = ?
        """
    ).first([.integer(episodeId)]) { row in
      func passages(_ text: Int32, _ times: Int32) -> PassageText? {
        guard let text = row.text(text), !text.isEmpty else { return nil }
        return PassageText(text: text, timeline: row.blob(times).map { [UInt8]($0) })
      }
      return IndexRow(
        episodeId: episodeId, title: row.text(0) ?? "", notes: row.text(2) ?? "",
        digest: row.integer(4), sideFiles: row.integer(7), feedIndex: row.integer(8),
        pruned: row.integer(9) == 1, chapters: passages(1, 5), transcript: passages(3, 6))
    }
  }

  /// Writes `row` as new: the caller removed any row the episode had.
  static func insert(_ row: IndexRow, _ db: Database) throws {
    try db.cachedStatement(
      sql:
        "INSERT INTO findText (rowid, title, chapters, notes, transcripts) VALUES (?, ?, ?, ?, ?)"
    ).run([
      .integer(row.episodeId), .text(row.title), .text(row.chapters?.text ?? ""),
      .text(row.notes), .text(row.transcript?.text ?? ""),
    ])
    try db.cachedStatement(
      sql: """
        INSERT OR REPLACE INTO findSources
          (episodeId, digest, sideFiles, feedIndex, pruned, chapterTimes, transcriptTimes)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """
    ).run([
      .integer(row.episodeId), SQLValue(row.digest), SQLValue(row.sideFiles),
      SQLValue(row.feedIndex), .integer(row.pruned ? 1 : 0), Self.timeline(row.chapters),
      Self.timeline(row.transcript),
    ])
  }

  private static func timeline(_ text: PassageText?) -> SQLValue {
    guard let text, !text.isEmpty else { return .null }
    return .blob(Data(text.timeline))
  }
}
