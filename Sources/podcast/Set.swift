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

  @Option(help: "Keep only the newest N downloaded episodes when syncing.")
  var keep: Int?

  @OptionGroup var settingsOptions: SettingsOptions

  @Option(help: "Remove a setting so the default applies again (repeatable).")
  var unset: [String] = []

  func validate() throws {
    if let keep, keep < 1 { throw ValidationError("--keep must be at least 1") }
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
    guard let store = try libraryOptions.openExistingStore() else {
      throw LibraryError.noSubscription(name, count: 0)
    }
    var subscription = try store.subscription(matching: name)
    guard let id = subscription.id else { throw LibraryError.noSubscription(name, count: 0) }
    let given = try settingsOptions.settings(episodesDir: libraryOptions.episodesDir)
    let before = try store.settings(subscriptionId: id)
    var settings = before.overridden(by: given)
    if let keep { subscription.keep = keep }
    for option in unset.map(Self.bare) {
      try settings.unset(option)
      if option == "keep" { subscription.keep = nil }
    }
    try store.updateSubscription(subscription)
    // Before its first sync, a subscription's choice is still open: what `subscribe` chose
    // with the old filters or `--first` gives way to what the first sync decides with these.
    try store.saveSettings(
      settings, subscriptionId: id,
      forgettingFirstRefresh: subscription.lastChecked == nil
        && (settings.filter != before.filter || settings.first != before.first))
    Console.print(
      "\(subscription.name): \(SettingsView.summary(keep: subscription.keep, settings))")
  }

  /// `--match` and `match` both name the setting.
  private static func bare(_ option: String) -> String {
    String(option.drop { $0 == "-" })
  }
}
