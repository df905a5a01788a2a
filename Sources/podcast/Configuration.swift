import Foundation
import PodcastKit

/// The config file of this run, read once before the arguments are parsed.
enum Configuration {
  /// The subcommands, so a new one gets its `[section]` without a second list to keep.
  static let commands = Swift.Set(
    PodcastCommand.configuration.subcommands.map { $0.configuration.commandName ?? "" })

  /// The file read, parsed and checked once per run: every command starts here.
  private static let loaded = Result { () throws(ConfigError) -> ConfigFile? in
    try ConfigFile.load(environment: ProcessInfo.processInfo.environment, commands: commands)
  }

  /// Nil when there is no file (or it failed, which `main` has already reported).
  static var file: ConfigFile? { try? loaded.get() }

  /// Checks the file, then adds its defaults to the arguments: `[program, command, words...]`
  /// becomes `[program, command, words..., defaults...]` (before a `--`, if there is one).
  static func arguments(_ arguments: [String]) throws -> [String] {
    guard let file = try loaded.get(), arguments.count >= 2, commands.contains(arguments[1])
    else {
      return arguments
    }
    let given = Array(arguments.dropFirst(2))
    if given.contains("--help") || given.contains("-h") { return arguments }
    let defaults = file.arguments(for: arguments[1], given: given.prefix { $0 != "--" }.map { $0 })
    guard !defaults.isEmpty else { return arguments }
    var words = arguments
    words.insert(contentsOf: defaults, at: words.firstIndex(of: "--") ?? words.count)
    return words
  }
}
