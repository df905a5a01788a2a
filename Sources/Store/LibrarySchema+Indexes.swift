import Basics
internal import GRDB
import Model

extension LibrarySchema {
  /// "v3-indexes": what a library of 10,000 subscriptions needs so that no per-feed or
  /// per-download query reads a whole table: the download rows by file (whether another
  /// download owns a path), and the subscription names in the case-insensitive form
  /// duplicates are refused by. Not by state: sync reads the unfinished downloads once per
  /// run, and an index on a column every progress write changes would cost a page per write.
  ///
  /// `nameKey` is Swift's `lowercased()` of the name (Unicode-aware, which SQLite's `lower`
  /// and `NOCASE` are not), written by every insert and update of a subscription. The index is
  /// not unique: a library written before the duplicate check may hold two such names, and the
  /// migration must not fail on it.
  static func addScaleIndexes(_ db: Database) throws {
    try db.create(index: "downloads_by_file", on: "downloads", columns: ["file"])
    try db.alter(table: "subscriptions") { table in
      table.add(column: "nameKey", .text)
    }
    let update = try db.makeStatement(sql: "UPDATE subscriptions SET nameKey = ? WHERE id = ?")
    for row in try Row.fetchAll(db, sql: "SELECT id, name FROM subscriptions") {
      let id: Int64 = row["id"]
      let name: String = row["name"]
      try update.execute(arguments: [Subscription.nameKey(name), id])
    }
    try db.create(index: "subscriptions_by_name_key", on: "subscriptions", columns: ["nameKey"])
  }
}
