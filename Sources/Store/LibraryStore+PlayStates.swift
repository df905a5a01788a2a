import Basics
import Foundation
internal import GRDB
import Model

/// How far each episode was played, from `mark` here and from the account's server.
extension LibraryStore {
  /// Every episode's play state, by episode key.
  public func playStates() throws -> [String: PlayState] {
    try read { db in try Self.playStates(db) }
  }

  private static func playStates(_ db: Database) throws -> [String: PlayState] {
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

  /// `mark --played`/`--unplayed`: each state, and with an account the action that tells the
  /// server (`play` to the end, or `new`), in one transaction.
  public func recordMarkedPlays(_ marked: [(state: PlayState, episodeURL: String, guid: String?)])
    throws
  {
    try write { db in
      let linked = try Self.account(db) != nil
      for (state, episodeURL, guid) in marked {
        try Self.save(state, db)
        guard linked else { continue }
        try db.execute(
          sql: """
            INSERT INTO accountOutbox
              (action, feedURL, episodeURL, guid, doneAt, position, total)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            state.played ? PendingAction.Kind.play.rawValue : PendingAction.Kind.new.rawValue,
            state.feedURL, episodeURL, guid, StoredDate(state.actedAt),
            state.played ? state.position : nil, state.played ? state.total : nil,
          ])
      }
    }
  }

  /// Applies what the server reports other devices did, and moves the account's action clock
  /// to `timestamp`, in one transaction: a kill before it commits repeats the pull, and a
  /// report seen again changes nothing (only a later action changes a state). A report is
  /// matched to a subscription by the URL the server knows it by, else by its feed; to an
  /// episode by GUID, else by the identity the library computes from the enclosure URL
  /// (tracking prefixes and query strings aside). Reports of feeds the library does not follow
  /// are left alone. Returns the states that changed.
  @discardableResult
  public func recordPlays(_ reports: [PlayReport], actionsSince timestamp: Int64, at time: Date)
    throws -> [PlayState]
  {
    try write { db in
      let changed = try Self.plays(reports, saving: true, db)
      try db.execute(
        sql: """
          UPDATE account SET actionsSince = ?, actionsExchanged = ?, lastError = NULL,
            lastErrorAt = NULL WHERE id = 1
          """, arguments: [timestamp, StoredDate(time)])
      return changed
    }
  }

  /// The states `recordPlays` would change; nothing is written (`sync --dry-run`).
  public func wouldRecordPlays(_ reports: [PlayReport]) throws -> [PlayState] {
    try read { db in try Self.plays(reports, saving: false, db) }
  }

  private static func plays(_ reports: [PlayReport], saving: Bool, _ db: Database) throws
    -> [PlayState]
  {
    var states = try playStates(db)
    var changed: [String: PlayState] = [:]
    var followed: [String: Subscription?] = [:]
    var episodeKeys: [Int64: [String: String]] = [:]
    for report in reports.sorted(by: { $0.at < $1.at }) {
      let found = try followed[report.podcast] ?? subscription(serverURL: report.podcast, db)
      followed[report.podcast] = found
      guard let found else { continue }
      let id = found.id
      if episodeKeys[id] == nil { episodeKeys[id] = try identityKeys(db, subscriptionId: id) }
      let keys = EpisodeIdentity.identityKeys(
        guid: report.guid, enclosureURL: report.episode, title: nil, published: nil)
      let key = keys.lazy.compactMap { episodeKeys[id]?[$0] }.first ?? keys[0]
      let next: PlayState?
      switch report.kind {
      case .play(let position, let total):
        next = PlayState.after(
          play: position, total: total, at: report.at, key: key, feedURL: found.feedURL,
          over: states[key])
      case .markedNew:
        next = PlayState.after(
          markedNewAt: report.at, key: key, feedURL: found.feedURL, over: states[key])
      }
      guard let next else { continue }
      if saving { try save(next, db) }
      states[key] = next
      changed[key] = next
    }
    return Array(changed.values)
  }

  /// Each identity key of the subscription's episodes, to the key the episode is stored under.
  private static func identityKeys(_ db: Database, subscriptionId: Int64) throws -> [String: String]
  {
    var keys: [String: String] = [:]
    let rows = try SeenEpisodeRow.fetchAll(
      db, sql: "SELECT \(SeenEpisodeRow.selection) FROM episodes WHERE subscriptionId = ?",
      arguments: [subscriptionId])
    for row in rows {
      for key in row.episode.identityKeys where keys[key] == nil { keys[key] = row.episode.key }
    }
    return keys
  }

  /// An episode's file deleted because it was played (`--delete-played`): the episode has no
  /// file any more, but its finished download stays, so listings call it deleted and neither
  /// sync nor a later look at the folder fetches it again.
  package func forgetPlayedFile(subscriptionId: Int64, key: String) throws {
    try write { db in
      try db.execute(
        sql: "UPDATE episodes SET downloadedFile = NULL WHERE subscriptionId = ? AND key = ?",
        arguments: [subscriptionId, key])
    }
  }
}
