import ArgumentParser
import Foundation
import PodcastKit

/// A subscription's own settings, as `subscribe` and `set` take them. `--keep` and
/// `--episodes-dir` are read by the commands themselves (they already had those flags).
struct SettingsOptions: ParsableArguments {
  @OptionGroup(title: "Filters") var filterOptions: FilterOptions

  @Option(
    help: "File name template for this subscription's episodes (see `podcast download --help`).")
  var nameTemplate: String?

  @Option(parsing: .unconditional, help: "Downloads at once for this subscription.")
  var concurrency: Int?

  @Option(help: "Bandwidth for this subscription's downloads, in bytes per second (500k, 2M).")
  var limitRate: String?

  @Option(help: "What the first sync takes: latest (default), N newest, all or none.")
  var first: String?

  @Flag(help: "Leave this subscription's files as served: sync writes no tags into them.")
  var noTags = false

  @Flag(help: "Keep no cover.jpg/cover.png of the podcast in this subscription's folder.")
  var noCover = false

  @Flag(help: "Keep no transcripts beside this subscription's episodes.")
  var noTranscripts = false

  @Flag(help: "Keep no chapters file beside this subscription's episodes.")
  var noChapters = false

  @Flag(help: "Read this subscription's paged feed on its first page only, not every page.")
  var noPages = false

  @Flag(
    help: "Keep feed.xml, a private feed of the downloaded episodes, in this subscription's folder."
  )
  var writeFeed = false

  @Option(
    help: ArgumentHelp(
      "The URL the Episodes folder is served at, for the links in this subscription's feed.xml.",
      valueName: "url"))
  var feedBaseURL: String?

  @Flag(
    help:
      "Keep index.html in this subscription's folder (and Episodes/index.html): a page to browse and play it."
  )
  var writePage = false

  @Option(
    help: ArgumentHelp(
      "Delete an episode's file this long after it was played on any device of the sync account (0, 7d, 30d).",
      valueName: "age"))
  var deletePlayed: String?

  @Flag(
    help:
      "Send this private feed to the sync account's server like any other (private feeds are kept from it otherwise)."
  )
  var shareWithAccount = false

  @Flag(
    name: .customLong("info-json"),
    help:
      "Keep <episode>.info.json beside this subscription's episodes: what the feed says of each.")
  var infoJSON = false

  func validate() throws {
    do {
      try settings(episodesDir: nil).check()
    } catch let error as ValidationError {
      throw error
    } catch {
      throw ValidationError(CommandFailure.message(for: error))
    }
  }

  /// The settings given on the command line; nil fields were not given.
  func settings(episodesDir: String?) throws -> SubscriptionSettings {
    var settings = SubscriptionSettings()
    settings.filter = try filterOptions.filter()
    if let nameTemplate {
      _ = try FileNamer(template: nameTemplate)
      settings.nameTemplate = nameTemplate
    }
    settings.episodesDir = episodesDir.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    settings.concurrency = concurrency
    settings.limitRate = try limitRate.map { try TransferRate.bytesPerSecond($0) }
    settings.first = try first.map(FirstSyncPolicy.init(parsing:))
    if noTags { settings.tags = false }
    if noCover { settings.cover = false }
    if noTranscripts { settings.transcripts = false }
    if noChapters { settings.chapters = false }
    if writeFeed { settings.feed = true }
    if writePage { settings.page = true }
    if infoJSON { settings.info = true }
    if noPages { settings.pages = false }
    settings.deletePlayed = deletePlayed
    if shareWithAccount { settings.shareWithAccount = true }
    settings.feedBaseURL = try feedBaseURL.map { try FeedBaseURL($0).text }
    return settings
  }
}
