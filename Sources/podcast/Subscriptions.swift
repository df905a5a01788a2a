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
    let store = try libraryOptions.openStore()
    let subscriptions = try store.subscriptions()
    let counts = try store.episodeCounts()
    let settings = try store.allSettings()
    if json {
      Console.print(Self.document(subscriptions, counts: counts, settings: settings).rendered())
    } else if subscriptions.isEmpty {
      Console.print("No subscriptions yet. Add one with `podcast subscribe FEED`.")
    } else {
      Self.table(subscriptions, counts: counts, settings: settings).forEach(Console.print)
    }
  }

  static func document(
    _ subscriptions: [Subscription], counts: [Int64: Int], settings: [Int64: SubscriptionSettings]
  ) -> JSONValue {
    .array(
      subscriptions.enumerated().map { offset, subscription in
        entry(
          subscription, number: offset + 1, episodeCount: counts[subscription.id ?? -1] ?? 0,
          settings: settings[subscription.id ?? -1] ?? SubscriptionSettings())
      })
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

  static func table(
    _ subscriptions: [Subscription], counts: [Int64: Int], settings: [Int64: SubscriptionSettings]
  ) -> [String] {
    let rows = subscriptions.enumerated().map { offset, subscription in
      [
        "\(offset + 1)", subscription.name, "\(counts[subscription.id ?? -1] ?? 0)",
        subscription.lastChecked.map(Format.time) ?? "never",
        SettingsView.summary(
          keep: subscription.keep, settings[subscription.id ?? -1] ?? SubscriptionSettings()),
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
