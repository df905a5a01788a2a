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

  @Option(help: "Keep only the newest N downloaded episodes when syncing.")
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
    if case .subscription = try? FeedSource.classify(feed) {
      throw CommandError.notAFeed(feed)
    }
    let credentials = try self.credentials()
    let source = try credentials.map(withCredentials) ?? feed
    // Fetching first proves it is a feed, and gives the title to name the subscription after.
    let resolved = try await CommandContext(libraryOptions: libraryOptions).resolve(source)
    let location = subscribedLocation(resolved, source: source, credentials: credentials)
    let store = try libraryOptions.openStore()
    let title = resolved.feed.podcast.title
    let base =
      title.map(SubscriptionName.slug).flatMap { $0.isEmpty ? nil : $0 }
      ?? SubscriptionName.guess(fromFeed: location)
    let chosenName = try name ?? store.availableName(basedOn: base)
    let settings = try settingsOptions.settings(episodesDir: libraryOptions.episodesDir)
    // Saved with the subscription, so its first sync is a conditional GET that still
    // downloads what the first-sync policy chose here.
    let firstRefresh = try SyncPlanner.firstRefresh(
      of: resolved.feed, feedURL: location, name: chosenName, settings: settings,
      validators: resolved.validators, store: store, namer: try syncNamer())
    let subscription = try store.addSubscription(
      name: chosenName, feedURL: location, title: title, keep: keep, settings: settings,
      firstRefresh: firstRefresh)
    let all = try store.subscriptions()
    let number = all.firstIndex { $0.id == subscription.id }.map { $0 + 1 }
    if json {
      let entry = Subscriptions.document(
        all, counts: try store.episodeCounts(), settings: try store.allSettings()
      ).element(at: (number ?? 1) - 1)
      Console.print((entry ?? .null).rendered())
      return
    }
    Console.print(
      "Subscribed to \(title ?? location) as \"\(subscription.name)\"\(number.map { " (number \($0))" } ?? "")."
    )
    Console.print(Self.firstSyncNote(firstRefresh.queued.count))
  }

  /// Where the subscription reads its feed: the URL after redirects, or the feed file's
  /// absolute path.
  private func subscribedLocation(
    _ resolved: ResolvedFeed, source: String, credentials: FeedCredentials?
  ) -> String {
    guard FeedSource.isRemote(resolved.location) else {
      return URL(fileURLWithPath: resolved.location).standardizedFileURL.path
    }
    let location = resolved.location
    // The final URL after redirects loses the userinfo; it goes back only on the same host.
    if let credentials, FeedCredentials.of(location) == nil,
      URL(string: location)?.host == URL(string: source)?.host
    {
      return credentials.applied(to: location) ?? location
    }
    return location
  }

  private static func firstSyncNote(_ queued: Int) -> String {
    switch queued {
    case 0: "Nothing to download yet; `podcast sync` fetches new episodes as they appear."
    case 1: "The next `podcast sync` downloads 1 episode, then new ones as they appear."
    default: "The next `podcast sync` downloads \(queued) episodes, then new ones as they appear."
    }
  }

  private func credentials() throws -> FeedCredentials? {
    guard let user else { return nil }
    return FeedCredentials(user: user, password: try PasswordSource.password(file: passwordFile))
  }

  private func withCredentials(_ credentials: FeedCredentials) throws -> String {
    guard let url = credentials.applied(to: feed) else {
      throw ValidationError("--user needs an http(s) feed URL, not \(feed)")
    }
    return url
  }

  /// The names the first sync would give: the config file's `name-template` for `sync`, so
  /// what `subscribe` queues is filed where a first sync on its own would have put it.
  private func syncNamer() throws -> FileNamer {
    guard let template = Configuration.file?.text(of: "name-template", for: "sync") else {
      return try FileNamer()
    }
    return try FileNamer(template: template)
  }

}
