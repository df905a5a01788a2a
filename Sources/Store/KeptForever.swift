import Basics
import Feeds
import Foundation
internal import GRDB
import Model

/// The episodes the user keeps whatever the retention (`mark NAME 7 --keep-forever`, gPodder's
/// "keep episode"): `--keep N` neither deletes their files nor counts them, and
/// `--delete-played` leaves them too. Keyed by the episode's identity key alone, like marks,
/// so the word follows a feed that moves.
public struct KeptForever: Sendable {
  private let store: LibraryStore

  public init(store: LibraryStore) {
    self.store = store
  }

  /// Keeps `episodes` of the feed at `feedURL`; `forever` false lets retention have them again.
  public func keep(_ episodes: [Episode], feedURL: String?, forever: Bool = true) throws {
    try store.write { db in
      for episode in episodes {
        let key = EpisodeMark.key(for: episode)
        if forever {
          try db.execute(
            sql: """
              INSERT OR REPLACE INTO keptForever (key, feedURL, title, markedAt)
              VALUES (?, ?, ?, ?)
              """, arguments: [key, feedURL, episode.title, StoredDate(Date())])
        } else {
          try db.execute(sql: "DELETE FROM keptForever WHERE key = ?", arguments: [key])
        }
      }
    }
  }

  /// The keys of every episode kept forever.
  public func keys() throws -> Set<String> {
    try store.read { db in
      // A library read before this version migrated it keeps none.
      guard try db.tableExists("keptForever") else { return [] }
      return Set(try String.fetchAll(db, sql: "SELECT key FROM keptForever"))
    }
  }
}
