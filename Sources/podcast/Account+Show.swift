import ArgumentParser
import Foundation
import PodcastKit

extension Account {
  /// `podcast account [show]`: the account and when it last exchanged what.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Show the account, when it last exchanged what, and what waits for the server."
    )

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
      guard let summary = try ShowAccount(paths: libraryOptions.paths).run() else {
        if json { return Console.print(JSONValue.null.rendered()) }
        return Console.print(
          "No sync account. Add one with `podcast account add URL --user NAME`.")
      }
      if json {
        Console.print(Self.document(summary).rendered())
      } else {
        Self.lines(summary).forEach(Console.print)
      }
    }

    static func document(_ summary: ShowAccount.Summary) -> JSONValue {
      .object([
        ("server", .string(summary.server)),
        ("user", .string(summary.user)),
        ("device", .string(summary.device)),
        ("follows", .string(summary.follows)),
        ("api", .string(summary.api?.rawValue)),
        ("addedAt", .date(summary.addedAt)),
        ("subscriptionsExchanged", .date(summary.subscriptionsExchanged)),
        ("actionsExchanged", .date(summary.actionsExchanged)),
        ("linkedSubscriptions", .int(summary.linkedSubscriptions)),
        ("pendingChanges", .int(summary.pendingChanges)),
        ("pendingActions", .int(summary.pendingActions)),
        ("lastError", .string(summary.lastError)),
        ("lastErrorAt", .date(summary.lastErrorAt)),
      ])
    }

    static func lines(_ summary: ShowAccount.Summary) -> [String] {
      func when(_ date: Date?) -> String {
        date.map { "\(Format.time($0)) (\(Format.age(since: $0)))" } ?? "never"
      }
      var lines = [
        "server           \(summary.server)" + (summary.api.map { " (\($0.name))" } ?? ""),
        "user             \(summary.user)",
        "device           \(summary.device)"
          + (summary.follows.map { ", following \(Format.singleLine($0))" } ?? ""),
        "added            \(when(summary.addedAt))",
        "subscriptions    exchanged \(when(summary.subscriptionsExchanged)); "
          + "\(summary.linkedSubscriptions) known to the server, "
          + Format.count(summary.pendingChanges, "change") + " to send",
        "episode actions  exchanged \(when(summary.actionsExchanged)); "
          + Format.count(summary.pendingActions, "action") + " to send",
      ]
      if let error = summary.lastError {
        lines.append("last error       \(when(summary.lastErrorAt)): \(Format.singleLine(error))")
      }
      return lines
    }
  }
}
