import Foundation
import PodcastKit

/// What a feed added on the account's server is subscribed with here: what `subscribe` would
/// take from the config file (`first`, `keep`, `delete-played`), and sync's file name template.
enum AccountDefaults {
  static func options(exchanges: Bool = true) -> AccountSync {
    var options = AccountSync()
    options.exchanges = exchanges
    guard let file = Configuration.file else { return options }
    options.keep = file.number(of: "keep", for: "subscribe")
    options.settings.first = file.text(of: "first", for: "subscribe").flatMap {
      try? FirstSyncPolicy(parsing: $0)
    }
    options.settings.deletePlayed = file.text(of: "delete-played", for: "subscribe")
    options.nameTemplate = file.text(of: "name-template", for: "sync")
    return options
  }
}
