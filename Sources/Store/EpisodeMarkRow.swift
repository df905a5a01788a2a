import Basics
import Foundation
internal import GRDB
import Model

/// An `EpisodeMark` as a row of the `episodeMarks` table (see `SubscriptionRow` for why apart).
package struct EpisodeMarkRow: FetchableRecord, PersistableRecord {
  package static let databaseTableName = "episodeMarks"

  package var mark: EpisodeMark

  package init(_ mark: EpisodeMark) {
    self.mark = mark
  }

  init(row: Row) throws {
    mark = EpisodeMark(
      key: try row.decode(forColumn: "key"),
      state: try row.decodeRawValue(EpisodeMark.State.self, forColumn: "state"),
      feedURL: try row.decode(forColumn: "feedURL"),
      title: try row.decode(forColumn: "title"),
      markedAt: try row.decode(forColumn: "markedAt"))
  }

  func encode(to container: inout PersistenceContainer) {
    container["key"] = mark.key
    container["state"] = mark.state.rawValue
    container["feedURL"] = mark.feedURL
    container["title"] = mark.title
    container["markedAt"] = mark.markedAt
  }
}
