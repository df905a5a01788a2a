import Basics
internal import GRDB
import Model

extension LibrarySchema {
  /// "v13-kept-forever": the episodes the user keeps whatever the retention
  /// (`mark NAME 7 --keep-forever`), keyed like marks by the episode's identity key alone.
  static func addKeptForever(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE keptForever (
          key TEXT PRIMARY KEY, feedURL TEXT, title TEXT, markedAt DATETIME NOT NULL);
        """)
  }
}
