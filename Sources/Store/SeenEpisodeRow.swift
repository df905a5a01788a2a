import Basics
import Foundation
internal import GRDB
import Model

/// A `SeenEpisode` as a row of the `episodes` table (see `SubscriptionRow` for why apart).
package struct SeenEpisodeRow: FetchableRecord, MutablePersistableRecord {
  package static let databaseTableName = "episodes"

  package var episode: SeenEpisode

  /// The columns `init(row:)` reads, named: a statement kept prepared must not depend on the
  /// order `*` had when it was prepared.
  package static let selection = """
    id, subscriptionId, key, guid, enclosureURL, title, published, firstSeen, downloadedFile
    """

  package init(_ episode: SeenEpisode) {
    self.episode = episode
  }

  /// A row of `selection`, by position (see `Statement.run`). The stored `key` is taken as it
  /// is, never recomputed: it is what the episode was first recognised by, and marks and
  /// downloads refer to it.
  init(_ row: SQLRow) {
    episode = SeenEpisode(
      id: row.integer(0), subscriptionId: row.integer(1) ?? 0, key: row.text(2) ?? "",
      guid: row.text(3), enclosureURL: row.text(4), title: row.text(5),
      published: row.date(6), firstSeen: row.date(7) ?? Date(timeIntervalSince1970: 0),
      downloadedFile: row.text(8))
  }

  /// A row of the query interface's, by column name (see `init(_:)` on the key).
  init(row: Row) throws {
    episode = SeenEpisode(
      id: try row.decode(forColumn: "id"),
      subscriptionId: try row.decode(forColumn: "subscriptionId"),
      key: try row.decode(forColumn: "key"),
      guid: try row.decode(forColumn: "guid"),
      enclosureURL: try row.decode(forColumn: "enclosureURL"),
      title: try row.decode(forColumn: "title"),
      published: try row.decode(forColumn: "published"),
      firstSeen: try row.decode(forColumn: "firstSeen"),
      downloadedFile: try row.decode(forColumn: "downloadedFile"))
  }

  /// The columns a row is written with besides `id` (SQLite's), and their values, in that
  /// order: one mapping for `encode` (updates) and `insertSQL` (a sync's new episodes).
  static let valueColumns = [
    "subscriptionId", "key", "guid", "enclosureURL", "title", "published", "firstSeen",
    "downloadedFile",
  ]

  var values: [SQLValue] {
    [
      .integer(episode.subscriptionId), .text(episode.key), SQLValue(episode.guid),
      SQLValue(episode.enclosureURL), SQLValue(episode.title), SQLValue(episode.published),
      SQLValue(episode.firstSeen), SQLValue(episode.downloadedFile),
    ]
  }

  /// Kept prepared by the store: GRDB's record insert built its SQL and a container of the
  /// values for every episode, most of the cost of recording a feed.
  static let insertSQL =
    "INSERT OR IGNORE INTO episodes (\(valueColumns.joined(separator: ", "))) "
    + "VALUES (\(Array(repeating: "?", count: valueColumns.count).joined(separator: ", ")))"

  func encode(to container: inout PersistenceContainer) {
    container["id"] = episode.id
    for (column, value) in zip(Self.valueColumns, values) {
      container[column] = value.databaseValue
    }
  }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    episode.id = inserted.rowID
  }
}
