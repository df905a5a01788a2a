import Basics
internal import GRDB
import Model

extension LibrarySchema {
  /// "v10-owners-and-checkpoints": who holds a download, in a form a reboot cannot impersonate
  /// (`ProcessOwner`: the pid of the existing `pid` column with its start time and boot), and
  /// what of its partial file is known to be on disk (`durableBytes`, and `partialBoot`, the
  /// boot that wrote the rest). A row from before has neither: its pid alone names nobody any
  /// more, and none of its partial file is trusted after a reboot.
  static func addOwnersAndCheckpoints(_ db: Database) throws {
    try db.alter(table: "downloads") { table in
      table.add(column: "ownerStart", .integer)
      table.add(column: "ownerBoot", .text)
      table.add(column: "durableBytes", .integer).notNull().defaults(to: 0)
      table.add(column: "partialBoot", .text)
    }
  }
}
