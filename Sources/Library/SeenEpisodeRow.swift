import Basics
import Foundation
internal import GRDB

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

  /// The stored `key` is taken as it is, never recomputed: it is what the episode was first
  /// recognised by, and marks and downloads refer to it.
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

  func encode(to container: inout PersistenceContainer) {
    container["id"] = episode.id
    container["subscriptionId"] = episode.subscriptionId
    container["key"] = episode.key
    container["guid"] = episode.guid
    container["enclosureURL"] = episode.enclosureURL
    container["title"] = episode.title
    container["published"] = episode.published.map(StoredDate.init)
    container["firstSeen"] = StoredDate(episode.firstSeen)
    container["downloadedFile"] = episode.downloadedFile
  }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    episode.id = inserted.rowID
  }
}
