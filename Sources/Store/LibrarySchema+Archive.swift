import Basics
internal import GRDB
import Model

extension LibrarySchema {
  /// "v7-download-archive": what the feed said about a finished download's episode
  /// (`ArchivedEpisode` as JSON), for the podcast folder's own feed. Nullable: rows written
  /// before it, and downloads of runs that write no feed, have none.
  static func addDownloadArchive(_ db: Database) throws {
    try db.alter(table: "downloads") { table in
      table.add(column: "archive", .text)
    }
  }
}
