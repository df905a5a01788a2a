import ArgumentParser
import Foundation
import PodcastKit

/// The one place an error becomes what the user sees: the sentence (`podcast: <sentence>`, one
/// line on stderr) and, when it ends the command, the exit status README.md's "Exit codes" gives it. Commands and
/// PodcastKit throw typed errors; nothing else picks words or exit codes for them.
enum CommandFailure {
  /// Ends the command for `error`: what a command throws to end the way argument-parser ends
  /// (a usage error, `--help`, an exit status already chosen) goes the parser's way; every
  /// other error is one line and its code. Parsing errors never come here: `PodcastCommand`
  /// hands them to argument-parser where parsing fails.
  static func exit(_ error: Error, command: ParsableCommand.Type) -> Never {
    if let error = error as? ValidationError, command != PodcastCommand.self {
      exitForUsage(error, command: command)
    }
    if error is ExitCode || error is CleanExit || error is ValidationError {
      command.exit(withError: error)
    }
    Console.error(error)
    Foundation.exit(exitCode(for: error).rawValue)
  }

  /// A usage error found while a subcommand ran (episode 9999 of a 143-episode feed): the
  /// message and the usage as argument-parser prints them, with the command's full name
  /// (`podcast download`), which argument-parser cannot know once parsing is over.
  private static func exitForUsage(_ error: ValidationError, command: ParsableCommand.Type)
    -> Never
  {
    let name = "podcast " + command._commandName
    Console.write(
      "Error: \(error.message)\nUsage: \(PodcastCommand.usageString(for: command))\n"
        + "  See '\(name) --help' for more information.\n", to: STDERR_FILENO)
    Foundation.exit(ExitCode.validationFailure.rawValue)
  }

  /// The sentence for `error`: its own description, with the flag that fixes it where the
  /// error is about a value the user typed (PodcastKit knows no flags).
  static func message(for error: Error) -> String {
    if let hint = InputHint.message(for: error) { return hint }
    if let sentence = (error as? LocalizedError)?.errorDescription { return sentence }
    return String(describing: error)
  }

  /// The README's exit codes: 75 when another sync holds the library, 64 for a bad default in the
  /// configuration or a missing Podcast Index key (usage errors), 1 for everything else that
  /// failed.
  static func exitCode(for error: Error) -> ExitCode {
    switch error {
    case let code as ExitCode: return code
    case CommandError.syncBusy, LibraryError.busy: return ExitCode(75)
    case is ConfigError: return ExitCode(64)
    // Podcast Index named (`podcastindex:ID`, `guid:GUID`) without the user's key.
    case SearchError.podcastIndexKeyMissing: return ExitCode(64)
    default: return .failure
    }
  }
}
