import Basics
internal import GRDB
import Model

extension LibrarySchema {
  /// "v12-account-follows": the device whose sync group the library joined (`account add
  /// --follow`), so `account` can say which it is and a later `--follow` what changed.
  static func addAccountFollows(_ db: Database) throws {
    try db.alter(table: "account") { table in
      table.add(column: "follows", .text)
    }
  }
}
