import ArgumentParser
import Foundation
import PodcastKit

struct SetCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "set",
    abstract: "Change a subscription's settings; with no options, show them.",
    discussion: """
      Examples:
        podcast set history --keep 10 --match '^Full'
        podcast set history --unset match --unset keep
      --episodes-dir sets this subscription's own folder.
      --unset takes an option's name without dashes: \
      \(SubscriptionSettings.optionNames.joined(separator: ", ")).
      """
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(
    help: "Subscription name, name prefix or number.", completion: SubscriptionCompletion.names)
  var name: String

  @Option(parsing: .unconditional, help: "Keep only the newest N downloaded episodes when syncing.")
  var keep: Int?

  @OptionGroup var settingsOptions: SettingsOptions

  @Option(help: "Remove a setting so the default applies again (repeatable).")
  var unset: [String] = []

  func validate() throws {
    if let keep, keep < 1 { throw ValidationError("--keep must be at least 1") }
    // `--unset keep --keep 3` says two things of one setting: refused, not one of them dropped.
    let given = SettingsView.flags(
      keep: keep, try settingsOptions.settings(episodesDir: libraryOptions.episodesDir))
    for option in unset {
      if let (flag, value) = given.first(where: { Self.setting($0.0) == Self.setting(option) }) {
        let clash = value.map { "--\(flag) \($0)" } ?? "--\(flag)"
        throw ValidationError(
          "--unset \(Self.bare(option)) and \(clash) name one setting; give one")
      }
    }
    for option in unset {
      var probe = SubscriptionSettings()
      do {
        try probe.unset(Self.bare(option))
      } catch {
        throw ValidationError(CommandFailure.message(for: error))
      }
    }
  }

  func run() throws {
    let outcome = try ChangeSettings(paths: libraryOptions.paths).run(
      name: name, keep: keep,
      settings: try settingsOptions.settings(episodesDir: libraryOptions.episodesDir),
      unset: unset.map(Self.bare))
    Console.print(
      "\(outcome.subscription.name): \(SettingsView.summary(keep: outcome.subscription.keep, outcome.settings))"
    )
  }

  /// `--match` and `match` both name the setting.
  private static func bare(_ option: String) -> String {
    String(option.drop { $0 == "-" })
  }

  /// The setting a flag or `--unset` name changes: `no-tags` and `tags` are one, as are
  /// `write-feed` and `feed`.
  private static func setting(_ option: String) -> String {
    let name = bare(option)
    let positive = name.hasPrefix("no-") ? String(name.dropFirst(3)) : name
    return positive == "feed" ? "write-feed" : positive
  }
}
