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
      for line in Self.table(entries, width: Console.isTerminal ? Console.width : 100_000) {
        Console.print(line)
      }
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

  /// One row per subscription (number, name, episodes, when last checked, title), then, each
  /// on its own indented line, the feed URL (never cut, so it can be copied), the settings
  /// that differ from the defaults, and the last sync's failure, if the feed failed.
  static func table(_ entries: [ListSubscriptions.Entry], width: Int) -> [String] {
    var table = Table(columns: [
      .init(title: "#", alignment: .right), .init(title: "NAME"),
      .init(title: "EPISODES", alignment: .right, dropOrder: 2),
      .init(title: "LAST CHECKED", dropOrder: 1), .init(title: "TITLE", flexible: true),
    ])
    table.flexibleMinimum = 16
    for entry in entries {
      let subscription = entry.subscription
      table.rows.append([
        "\(entry.number)", Format.singleLine(subscription.name), "\(entry.episodeCount)",
        subscription.lastChecked.map(Format.time) ?? "never",
        Format.singleLine(subscription.title ?? ""),
      ])
    }
    let rendered = table.render(width: width)
    let indent = String(repeating: " ", count: String(entries.count).count + 2)
    var lines = [rendered[0]]
    for (entry, row) in zip(entries, rendered.dropFirst()) {
      let subscription = entry.subscription
      lines.append(row)
      lines.append(indent + subscription.feedURL)
      let settings = SettingsView.summary(keep: subscription.keep, entry.settings)
      if settings != "defaults" {
        lines.append(TerminalText.truncated(indent + Format.singleLine(settings), to: width))
      }
      if let error = subscription.lastError {
        // The URL is on the line above: the reason comes first.
        let url = subscription.feedURL + ": "
        let reason = error.hasPrefix(url) ? String(error.dropFirst(url.count)) : error
        lines.append(
          TerminalText.truncated(indent + "failing: " + Format.singleLine(reason), to: width))
      }
    }
    return lines
  }
}
