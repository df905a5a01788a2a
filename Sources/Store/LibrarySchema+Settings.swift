import Basics
internal import GRDB
import Model

extension LibrarySchema {
  /// "v2-settings": per-subscription settings (one JSON document per subscription, so a new
  /// setting needs no migration) and episode marks.
  static func createSettings(_ db: Database) throws {
    try db.create(table: "subscriptionSettings") { table in
      table.primaryKey("subscriptionId", .integer)
        .references("subscriptions", onDelete: .cascade)
      table.column("settings", .text).notNull()
    }
    try db.create(table: "episodeMarks") { table in
      table.primaryKey("key", .text)
      table.column("state", .text).notNull()
      table.column("feedURL", .text)
      table.column("title", .text)
      table.column("markedAt", .datetime).notNull()
    }
  }
}
