import Basics
internal import GRDB
import Model

/// The database's tables, as a list of migrations. Never edit a shipped migration: add "v2",
/// "v3"... so old libraries upgrade in place and older programs can tell they are too old.
package enum LibrarySchema {
  /// The migrations this build knows; a database that lists others was written by a newer one.
  package static var knownMigrations: [String] { migrator.migrations }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1", migrate: createVersion1)
    migrator.registerMigration("v2-settings", migrate: createSettings)
    migrator.registerMigration("v2-downloads", migrate: addDownloadOrigins)
    migrator.registerMigration("v3-indexes", migrate: addScaleIndexes)
    migrator.registerMigration("v4-published", migrate: addDownloadPublished)
    migrator.registerMigration("v5-download-details", migrate: addDownloadDetails)
    migrator.registerMigration("v6-download-keys", migrate: keyDownloadsByEpisode)
    migrator.registerMigration("v7-download-archive", migrate: addDownloadArchive)
    migrator.registerMigration("v8-account", migrate: addAccount)
    migrator.registerMigration("v9-kept-feeds", migrate: addKeptFeeds)
    migrator.registerMigration("v9-update-index-dropped", migrate: dropUpdateIndex)
    migrator.registerMigration("v10-owners-and-checkpoints", migrate: addOwnersAndCheckpoints)
    migrator.registerMigration("v11-feed-shows", migrate: addFeedShows)
    migrator.registerMigration("v12-account-follows", migrate: addAccountFollows)
    migrator.registerMigration("v13-kept-forever", migrate: addKeptForever)
    migrator.registerMigration("v14-find-index", migrate: addFindIndex)
    return migrator
  }

  private static func createVersion1(_ db: Database) throws {
    try db.create(table: "subscriptions") { table in
      table.autoIncrementedPrimaryKey("id")
      table.column("name", .text).notNull().unique()
      table.column("feedURL", .text).notNull().unique()
      table.column("title", .text)
      table.column("keep", .integer)
      table.column("addedAt", .datetime).notNull()
      table.column("lastChecked", .datetime)
      table.column("etag", .text)
      table.column("lastModified", .text)
      table.column("lastError", .text)
    }
    try db.create(table: "episodes") { table in
      table.autoIncrementedPrimaryKey("id")
      table.column("subscriptionId", .integer).notNull()
        .references("subscriptions", onDelete: .cascade)
      table.column("key", .text).notNull()
      table.column("guid", .text)
      table.column("enclosureURL", .text)
      table.column("title", .text)
      table.column("published", .datetime)
      table.column("firstSeen", .datetime).notNull()
      table.column("downloadedFile", .text)
      table.uniqueKey(["subscriptionId", "key"])
    }
    try db.create(table: "downloads") { table in
      table.primaryKey("url", .text)
      table.column("podcastTitle", .text).notNull()
      table.column("episodeTitle", .text).notNull()
      table.column("state", .text).notNull()
      table.column("bytes", .integer).notNull().defaults(to: 0)
      table.column("total", .integer)
      table.column("partialPath", .text).notNull()
      table.column("file", .text)
      table.column("etag", .text)
      table.column("lastModified", .text)
      table.column("error", .text)
      table.column("updatedAt", .datetime).notNull()
      table.column("episodeKey", .text)
      table.column("pid", .integer)
    }
    try db.create(index: "downloads_by_update", on: "downloads", columns: ["updatedAt"])
  }

  /// Which feed a download came from (so `unsubscribe --delete-files` also finds what
  /// `download` fetched), and finding a finished download by episode identity when the
  /// publisher moved its file to a new URL.
  private static func addDownloadOrigins(_ db: Database) throws {
    try db.alter(table: "downloads") { table in
      table.add(column: "feedURL", .text)
    }
    try db.create(index: "downloads_by_episode", on: "downloads", columns: ["episodeKey"])
    try db.create(index: "downloads_by_feed", on: "downloads", columns: ["feedURL"])
  }
}
