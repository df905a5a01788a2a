import Basics
internal import GRDB
import Model

extension LibrarySchema {
  /// "v9-kept-feeds": the last copy of each subscription's feed (`KeptFeeds`), a row per
  /// subscription that goes with it: the copy (`KeptFeed`'s bytes, as the files of earlier
  /// versions held them), the validators it came with, and when it was last known current.
  /// The files earlier versions kept in `.podcast/feeds/` move in once a write opens the
  /// library (`LibraryStore.moveKeptFiles`).
  static func addKeptFeeds(_ db: Database) throws {
    try db.create(table: "keptFeeds") { table in
      table.primaryKey("subscriptionId", .integer)
        .references("subscriptions", onDelete: .cascade)
      table.column("feedURL", .text).notNull()
      table.column("etag", .text)
      table.column("lastModified", .text)
      table.column("checked", .datetime).notNull()
      table.column("copy", .blob).notNull()
    }
  }
}

extension LibrarySchema {
  /// "v9-update-index-dropped": the index on `downloads.updatedAt` goes. Every move of a
  /// download changes that column, so the index costs a page of the WAL on each (a sync's
  /// download made three or four), for the one listing that sorts by it (`status`), which
  /// sorts a few thousand rows without it in a moment.
  static func dropUpdateIndex(_ db: Database) throws {
    try db.drop(index: "downloads_by_update")
  }
}
