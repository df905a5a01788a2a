import ArgumentParser
import Foundation
import PodcastKit

/// `podcast account`: the library's sync-server account; shows it when no subcommand is given.
struct Account: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "account",
    abstract: "Sync subscriptions and plays with a gpodder.net or Nextcloud gPodder Sync server.",
    discussion: """
      One account per library, on a server that speaks the gpodder.net API or Nextcloud \
      gPodder Sync (Nextcloud's gpoddersync app, oPodSync, gpodder.net). With an account, \
      every `podcast sync` exchanges with it: feeds added or removed on the phone are \
      subscribed or unsubscribed here (files stay), what is subscribed here reaches the \
      phone, each download is sent as a `download` action, and plays on the phone are \
      recorded here (`episodes` shows them; `--delete-played` prunes by them). \
      `sync --no-account` leaves it out of one run.
      Examples:
        podcast account add https://cloud.example.org --user ada
        podcast account
        podcast account sync
      """,
    subcommands: [Show.self, Add.self, Exchange.self, Remove.self],
    defaultSubcommand: Show.self
  )
}
