import ArgumentParser
import Foundation
import PodcastKit

extension Account {
  /// `podcast account sync`: the exchange alone, no feed read.
  struct Exchange: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sync",
      abstract: "Exchange subscriptions and episode actions with the account now, reading no feed.",
      discussion: """
        Feeds added on the server are subscribed here (their first `podcast sync` downloads \
        by the --first policy); feeds removed there are unsubscribed here (files stay). \
        Exits 75 when a sync is running on the same library (use --wait to queue).
        """
    )

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Print nothing unless something failed.")
    var quiet = false

    @Flag(help: "Wait for a running sync to finish instead of exiting 75.")
    var wait = false

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
      let context = CommandContext(libraryOptions: libraryOptions)
      var exchange = ExchangeWithAccount(
        library: try context.openLibrary(), network: context.network)
      exchange.options = AccountDefaults.options()
      exchange.waitsForLock = wait
      let report: AccountExchangeReport
      do {
        report = try await exchange.run { Console.error($0) }
      } catch LibraryError.busy {
        throw CommandError.syncBusy(library: context.paths.root)
      }
      if json {
        Console.print(AccountReport.document(report).rendered())
      } else if !quiet {
        AccountReport.lines(report, summary: true).forEach(Console.print)
      }
      if report.failed { throw ExitCode.failure }
    }
  }
}
