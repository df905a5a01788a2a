import ArgumentParser
import Foundation
import PodcastKit

struct Subscribe: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subscribe",
    abstract: "Follow a feed, so `podcast sync` downloads its new episodes.",
    discussion: """
      The filters and settings below are stored with the subscription and applied by every \
      sync; --episodes-dir here is this subscription's own folder. Change them later with \
      `podcast set`; `podcast subscriptions` shows them.
      """
  )

  @OptionGroup var libraryOptions: LibraryOptions

  @Argument(help: "Feed URL, Apple Podcasts link, itunes:ID, or local feed file.")
  var feed: String

  @Option(help: "Short name to refer to the subscription (default: from the feed's title).")
  var name: String?

  @Option(parsing: .unconditional, help: "Keep only the newest N downloaded episodes when syncing.")
  var keep: Int?

  @Option(
    help: ArgumentHelp(
      "User name for a feed behind HTTP authentication; the password comes from PODCAST_PASSWORD, --password-file or the terminal.",
      valueName: "NAME"))
  var user: String?

  @Option(
    help: ArgumentHelp("File whose first line is the password (for cron).", valueName: "FILE"))
  var passwordFile: String?

  @OptionGroup var settingsOptions: SettingsOptions

  @Flag(help: "Print the new subscription as JSON (as `subscriptions --json` shows it).")
  var json = false

  func validate() throws {
    if let keep, keep < 1 { throw ValidationError("--keep must be at least 1") }
    if passwordFile != nil && user == nil {
      throw ValidationError("--password-file goes with --user")
    }
  }

  func run() async throws {
    let outcome: SubscribeToFeed.Outcome
    do {
      outcome = try await SubscribeToFeed(
        paths: libraryOptions.paths,
        network: CommandContext(libraryOptions: libraryOptions).network
      ).run(
        feed: feed, name: name, keep: keep,
        credentials: user.map { user in { try credentials(of: user) } },
        settings: try settingsOptions.settings(episodesDir: libraryOptions.episodesDir),
        // The config file's template for `sync`: the first sync's files go where it names them.
        firstSyncNameTemplate: Configuration.file?.text(of: "name-template", for: "sync"))
    } catch SubscribeToFeed.Failure.credentialsNeedURL(let feed) {
      throw ValidationError("--user needs an http(s) feed URL, not \(feed)")
    }
    let subscription = outcome.subscription
    if let problem = outcome.pageProblem {
      Console.error(
        problem.isFailure
          ? "\(CommandFailure.message(for: problem)); the first `podcast sync` reads every page again"
          : CommandFailure.message(for: problem))
    }
    if json {
      let entry = outcome.number.map {
        Subscriptions.entry(
          subscription, number: $0, episodeCount: outcome.episodeCount,
          settings: outcome.settings)
      }
      Console.print((entry ?? .null).rendered())
      return
    }
    Console.print(
      "Subscribed to \(subscription.title ?? subscription.feedURL) as \"\(subscription.name)\"\(outcome.number.map { " (number \($0))" } ?? "")."
    )
    Console.print(
      outcome.pageProblem?.isFailure == true
        ? "The first `podcast sync` chooses what to download."
        : Self.firstSyncNote(outcome.queuedForFirstSync))
  }

  private static func firstSyncNote(_ queued: Int) -> String {
    switch queued {
    case 0: "Nothing to download yet; `podcast sync` fetches new episodes as they appear."
    case 1: "The next `podcast sync` downloads 1 episode, then new ones as they appear."
    default: "The next `podcast sync` downloads \(queued) episodes, then new ones as they appear."
    }
  }

  private func credentials(of user: String) throws -> FeedCredentials {
    FeedCredentials(user: user, password: try PasswordSource.password(file: passwordFile))
  }

}
