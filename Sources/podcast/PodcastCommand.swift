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
      arguments = try Configuration.arguments(
        ArgumentOrder.globalOptionsMovedAfterCommand(CommandLine.arguments))
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
      // A usage error found while running (episode 9999 of a 143-episode feed) shows the
      // usage of the command that was run, not the top level's.
      CommandFailure.exit(error, command: type(of: command))
    }
  }
}
