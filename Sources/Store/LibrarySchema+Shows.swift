internal import GRDB

extension LibrarySchema {
  /// "v11-feed-shows": which show each feed that queued a download is (`ShowIdentity`), so an
  /// episode downloaded from one feed URL is found, by its GUID, when the same show is
  /// downloaded from another (a mirror, a second address): see `FinishedDownloads.find`.
  static func addFeedShows(_ db: Database) throws {
    try db.create(table: "feedShows") { table in
      table.primaryKey("feedURL", .text)
      table.column("show", .text).notNull().indexed()
    }
  }
}
