import Basics
internal import GRDB
import Model

extension LibrarySchema {
  /// "v5-download-details": what a queued or interrupted download takes from its feed (see
  /// `DownloadDetails`), so one started or resumed after a 304 gets its tags and side files.
  /// Nullable: rows written before it go on as they did.
  static func addDownloadDetails(_ db: Database) throws {
    try db.alter(table: "downloads") { table in
      table.add(column: "details", .text)
    }
  }
}
