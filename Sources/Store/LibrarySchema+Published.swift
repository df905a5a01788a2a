import Basics
internal import GRDB
import Model

extension LibrarySchema {
  /// "v4-published": the episode's publication date on its download row, so a podcast
  /// folder's playlist (`FolderPlaylist`) is newest first also for episodes `download` fetched
  /// without a subscription. Rows finished before this version take the date sync recorded for
  /// the same file, where there is one; the others fall back to their download time.
  static func addDownloadPublished(_ db: Database) throws {
    try db.alter(table: "downloads") { table in
      table.add(column: "published", .datetime)
    }
    try db.execute(
      sql: """
        UPDATE downloads SET published =
          (SELECT episodes.published FROM episodes WHERE episodes.downloadedFile = downloads.file
           AND episodes.published IS NOT NULL LIMIT 1)
        WHERE state = 'done' AND file IS NOT NULL
        """)
  }
}
