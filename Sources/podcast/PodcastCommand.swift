import ArgumentParser
import Foundation
import PodcastKit

@main
struct PodcastCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "podcast",
    abstract: "Find, list and download podcasts from the command line.",
    discussion: """
      Examples:
        podcast search hardcore history
        podcast episodes itunes:173001861
        podcast download https://example.com/feed.xml 2-4
        podcast --library ~/Pods sync
      --library DIR and --episodes-dir DIR go before or after the command name, for every \
      command. Defaults for any option can be kept in ~/.config/podcast/config.toml; \
      `man podcast` lists its keys, the environment variables and the exit codes.
      """,
    version: Release.version,
    subcommands: [
      Search.self,
      Episodes.self,
      Download.self,
      Find.self,
      Sync.self,
      Status.self,
      Subscribe.self,
      Unsubscribe.self,
      Subscriptions.self,
      Import.self,
      Export.self,
      SetCommand.self,
      Mark.self,
      Account.self,
    ]
  )

  static func main() async {
    // A file-size limit (ulimit -f) must be an error we report, not a signal that kills us.
    signal(SIGXFSZ, SIG_IGN)
    signal(SIGPIPE, SIG_IGN)
    let arguments: [String]
    do {
      let arranged = ArgumentOrder.podcast.arranged(CommandLine.arguments)
      CommandSuggestion.exitIfMistyped(arranged)
      arguments = try Configuration.arguments(arranged)
    } catch {
      // A bad default is a bad option, whichever command is run (64, CommandFailure).
      CommandFailure.exit(error, command: Self.self)
    }
    await run(arguments: arguments)
  }

  static func run(arguments: [String]) async {
    var command: ParsableCommand
    do {
      command = try parseAsRoot(Array(arguments.dropFirst()))
    } catch {
      exit(withError: error)
    }
    do {
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      // An error a signal caused is the interruption's to report (exit 130).
      Interrupt.waitForExitIfStopping()
      // A command argument-parser brings itself (`help`, which answers `--help` too) ends
      // the parser's way.
      guard isOurs(type(of: command)) else { exit(withError: error) }
      // A usage error found while running (episode 9999 of a 143-episode feed) shows the
      // usage of the command that was run, not the top level's.
      CommandFailure.exit(error, command: type(of: command))
    }
  }

  /// The command `path` names (`["account", "add"]`); this one for `[]`.
  static func command(at path: [String]) -> ParsableCommand.Type? {
    var command: ParsableCommand.Type = Self.self
    for name in path {
      guard
        let next = command.configuration.subcommands.first(where: {
          $0.configuration.commandName == name
        })
      else { return nil }
      command = next
    }
    return command
  }

  /// Whether `command` is this program's: this one or a subcommand, at any depth.
  private static func isOurs(_ command: ParsableCommand.Type) -> Bool {
    var pending: [ParsableCommand.Type] = [Self.self]
    while let next = pending.popLast() {
      if next == command { return true }
      pending += next.configuration.subcommands
    }
    return false
  }
}
