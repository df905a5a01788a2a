import Basics
import Foundation
internal import GRDB
import Model

/// How far each episode was played (`PlayState`), from `mark` here and from the account's
/// server: rows of `playStates`, keyed by episode identity key.
public struct PlayStates: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  /// Every episode's play state, by episode key.
  public func all() throws -> [String: PlayState] {
    try store.read { db in try Self.all(db) }
  }

  /// `mark --played`/`--unplayed`: each state, and with an account the action that tells the
  /// server (`play` to the end, or `new`), in one transaction.
  public func recordMarked(_ marked: [(state: PlayState, episodeURL: String, guid: String?)])
    throws
  {
    try store.write { db in
      for (state, episodeURL, guid) in marked {
        try Self.save(state, db)
        try LibraryStore.owe(
          state.played ? .play : .new, feedURL: state.feedURL, episodeURL: episodeURL,
          guid: guid, at: state.actedAt, position: state.played ? state.position : nil,
          total: state.played ? state.total : nil, db)
      }
    }
  }

  /// Saves the states `decide` makes of what the library holds, and moves the account's
  /// action clock to `timestamp`, in one transaction: a kill before it commits repeats the
  /// pull, and `decide` sees the states as no other write can change them meanwhile. Returns
  /// the states saved.
  @discardableResult
  public func record(
    actionsSince timestamp: Int64, at time: Date,
    deciding decide: (PlayLookup) throws -> [PlayState]
  ) throws -> [PlayState] {
    try store.write { db in
      let changed = try decide(PlayLookup(db: db))
      for state in changed { try Self.save(state, db) }
      try db.execute(
        sql: """
          UPDATE account SET actionsSince = ?, actionsExchanged = ?, lastError = NULL,
            lastErrorAt = NULL WHERE id = 1
          """, arguments: [timestamp, StoredDate(time)])
      return changed
    }
  }

  /// The states `decide` would make; nothing is written (`sync --dry-run`).
  public func preview(deciding decide: (PlayLookup) throws -> [PlayState]) throws -> [PlayState] {
    try store.read { db in try decide(PlayLookup(db: db)) }
  }

  static func all(_ db: Database) throws -> [String: PlayState] {
    var states: [String: PlayState] = [:]
    // A library read before this version migrated it has none.
    guard try db.tableExists("playStates") else { return states }
    for row in try Row.fetchAll(db, sql: "SELECT * FROM playStates") {
      let state = PlayState(
        key: row["key"], feedURL: row["feedURL"], position: row["position"],
        total: row["total"], played: row["played"], playedAt: row["playedAt"],
        actedAt: row["actedAt"])
      states[state.key] = state
    }
    return states
  }

  private static func save(_ state: PlayState, _ db: Database) throws {
    try db.execute(
      sql: """
        INSERT OR REPLACE INTO playStates
          (key, feedURL, position, total, played, playedAt, actedAt)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        state.key, state.feedURL, state.position, state.total, state.played,
        state.playedAt.map(StoredDate.init), StoredDate(state.actedAt),
      ])
  }
}

/// What deciding a play reported by the server needs to read, inside the transaction that
/// records it (`PlayStates.record`): the states so far, the subscription the server means by a
/// feed URL, and the keys of a subscription's episodes.
public struct PlayLookup {
  fileprivate let db: Database

  /// Every episode's play state, by episode key.
  public func states() throws -> [String: PlayState] {
    try PlayStates.all(db)
  }

  /// The subscription the server means by `url` (see `AccountJournal.subscription(serverURL:)`).
  public func subscription(serverURL url: String) throws -> Subscription? {
    try LibraryStore.subscription(serverURL: url, db)
  }

  /// Each identity key of the subscription's episodes, to the key the episode is stored under.
  public func episodeKeys(subscriptionId: Int64) throws -> [String: String] {
    var keys: [String: String] = [:]
    let rows = try SeenEpisodeRow.fetchAll(
      db, sql: "SELECT \(SeenEpisodeRow.selection) FROM episodes WHERE subscriptionId = ?",
      arguments: [subscriptionId])
    for row in rows {
      for key in row.episode.identityKeys where keys[key] == nil { keys[key] = row.episode.key }
    }
    return keys
  }
}
