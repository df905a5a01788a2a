import ArgumentParser
import Foundation
import PodcastKit

struct Subscriptions: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subscriptions",
    abstract: "List subscriptions; the number shown selects one in other commands."
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Flag(help: "Print JSON.")
  var json = false

  @Flag(help: "Print private feeds' tokens and passwords instead of masking them.")
  var showSecrets = false

  func run() throws {
    Console.showsSecrets = showSecrets
    let entries = try ListSubscriptions(paths: libraryOptions.paths).run()
    if json {
      Console.print(JSONValue.array(entries.map(Self.entry)).rendered())
    } else if entries.isEmpty {
      Console.print("No subscriptions yet. Add one with `podcast subscribe FEED`.")
    } else {
      Self.table(entries).forEach(Console.print)
    }
  }

  /// One subscription as the document lists it (`subscribe --json` prints the new one alone).
  static func entry(_ listed: ListSubscriptions.Entry) -> JSONValue {
    entry(
      listed.subscription, number: listed.number, episodeCount: listed.episodeCount,
      settings: listed.settings)
  }

  /// One subscription as the document lists it (`subscribe --json` prints the new one alone).
  static func entry(
    _ subscription: Subscription, number: Int, episodeCount: Int, settings: SubscriptionSettings
  ) -> JSONValue {
    .object([
      ("index", .int(number)),
      ("name", .string(subscription.name)),
      ("feedURL", .string(subscription.feedURL)),
      ("title", .string(subscription.title)),
      ("episodeCount", .int(episodeCount)),
      ("lastChecked", .date(subscription.lastChecked)),
      ("keep", .int(subscription.keep)),
      ("lastError", .string(subscription.lastError)),
      ("settings", SettingsView.json(keep: subscription.keep, settings)),
    ])
  }

  static func table(_ entries: [ListSubscriptions.Entry]) -> [String] {
    let rows = entries.map { entry in
      let subscription = entry.subscription
      return [
        "\(entry.number)", subscription.name, "\(entry.episodeCount)",
        subscription.lastChecked.map(Format.time) ?? "never",
        SettingsView.summary(keep: subscription.keep, entry.settings),
        subscription.title.map { "\($0)  \(subscription.feedURL)" } ?? subscription.feedURL,
      ]
    }
    let header = ["#", "NAME", "EPISODES", "LAST CHECKED", "SETTINGS", "FEED"]
    let widths = (0..<header.count - 1).map { column in
      ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    return ([header] + rows).map { row in
      zip(row, widths).map { cell, width in
        cell.padding(toLength: width, withPad: " ", startingAt: 0)
      }
      .joined(separator: "  ") + "  " + (row.last ?? "")
    }
  }
}
