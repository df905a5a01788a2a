import ArgumentParser
import Foundation
import PodcastKit

extension Account {
  /// `podcast account add URL --user NAME`: links the library to an account.
  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Link this library to an account on a sync server, checking the login there.",
      discussion: """
        The password comes from --password-file, PODCAST_SYNC_PASSWORD, ~/.netrc (machine \
        HOST login NAME password ...) or the terminal; it is stored in the library (readable \
        by you only) and shown in no output. Where the server keeps subscriptions per device \
        (gpodder.net), --follow DEVICE puts this library in that device's sync group; without \
        it, the account's devices are listed. The library's subscriptions are sent to the \
        server at the first exchange (private feeds only with `set NAME --share-with-account`). \
        Adding the account the library has already replaces its password.
        """
    )

    @OptionGroup var libraryOptions: LibraryOptions

    @Argument(help: "The server's address, e.g. https://cloud.example.org (with its path, if any).")
    var url: String

    @Option(help: ArgumentHelp("The account's user name.", valueName: "NAME"))
    var user: String

    @Option(
      help: ArgumentHelp("File whose first line is the password (for scripts).", valueName: "FILE"))
    var passwordFile: String?

    @Option(
      help: ArgumentHelp("This library's device ID (default: podcast-<hostname>).", valueName: "ID")
    )
    var device: String?

    @Option(help: "gpodder (the gpodder.net API), nextcloud (Nextcloud gPodder Sync) or auto.")
    var api: String = "auto"

    @Option(
      help: ArgumentHelp(
        "Share one list of subscriptions with this device (servers with sync groups).",
        valueName: "DEVICE"))
    var follow: String?

    @Flag(help: "Print the account as `account --json` shows it.")
    var json = false

    func validate() throws {
      if api != "auto" && AccountAPI(rawValue: api) == nil {
        throw ValidationError("--api \(api): give gpodder, nextcloud or auto")
      }
    }

    func run() async throws {
      let host = URL(string: url)?.host ?? url
      let password = try PasswordSource.password(
        file: passwordFile, variable: "PODCAST_SYNC_PASSWORD", netrc: (host, user))
      let context = CommandContext(libraryOptions: libraryOptions)
      let outcome = try await AddAccount(paths: context.paths, network: context.network).run(
        server: url, user: user, password: password, device: device,
        api: AccountAPI(rawValue: api), follow: follow)
      if json {
        if let summary = try ShowAccount(paths: context.paths).run() {
          Console.print(Show.document(summary).rendered())
        }
        return
      }
      if outcome.relinked {
        Console.print(
          "Replaced the password of \(outcome.user) on \(outcome.server); what waits for the"
            + " server goes at the next exchange.")
        if let followed = outcome.followed {
          Console.print(
            outcome.followedBefore == followed
              ? "This device still shares one list of subscriptions with \(followed)."
              : "This device now shares one list of subscriptions with \(followed)"
                + (outcome.followedBefore.map { " (it followed \($0) before)." } ?? "."))
        } else if outcome.followNeedless {
          Console.print(
            "The server keeps one list of subscriptions per user: nothing to follow.")
        }
        return
      }
      Console.print(
        "Linked this library to \(outcome.user) on \(outcome.server) as device \(outcome.device)"
          + " (\(outcome.api.name)\(outcome.detected ? ", found out by asking the server" : ""))."
      )
      if let followed = outcome.followed {
        Console.print("This device shares one list of subscriptions with \(followed).")
      } else if outcome.followNeedless {
        Console.print("The server keeps one list of subscriptions per user: nothing to follow.")
      } else if !outcome.devices.isEmpty {
        Console.print(
          "The account's other devices (--follow one where the server keeps a list per device):")
        for device in outcome.devices {
          Console.print(
            "  \(Format.singleLine(device.id))  \(Format.singleLine(device.caption))"
              + " (\(Format.singleLine(device.type)))")
        }
      }
      Console.print(
        "The next `podcast sync` (or `podcast account sync`) exchanges with it: "
          + Format.count(outcome.subscriptionsToSend, "subscription") + " to send, "
          + "and the server's subscriptions and plays to fetch.")
    }
  }
}
