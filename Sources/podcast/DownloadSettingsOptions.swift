import ArgumentParser
import PodcastKit

/// How episodes are fetched and named; shared by `download` and `sync`.
struct DownloadSettingsOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help:
      "Downloads at once (default: \(ParallelDownloads.defaultConcurrency), or a subscription's own setting in sync)."
  )
  var concurrency: Int?

  @Option(
    parsing: .unconditional,
    help:
      "Downloads at once from any one server, so none is hammered (three times this over HTTP/2, as streams on one connection)."
  )
  var perHost = ParallelDownloads.defaultPerHost

  @Option(
    help:
      "File name template: {podcast} {date} {title} {guid} {index} {season} {number} {filename} {ext}."
  )
  var nameTemplate = FileNamer.defaultTemplate

  @Option(
    help: "Bandwidth for all downloads together, in bytes per second (500k, 2M; k is 1024).")
  var limitRate: String?

  @Flag(
    name: .customLong("no-tags"),
    help: "Leave episode files exactly as served: no title, cover or other tags from the feed.")
  var noTags = false

  @Flag(
    name: .customLong("no-cover"),
    help: "Do not keep the podcast's picture as cover.jpg/cover.png in its folder.")
  var noCover = false

  @Flag(
    name: .customLong("no-transcripts"),
    help: "Do not keep the feed's transcript beside each episode.")
  var noTranscripts = false

  @Flag(
    name: .customLong("all-transcripts"),
    help: "Keep every transcript the feed lists, not only the first.")
  var allTranscripts = false

  @Flag(
    name: .customLong("no-chapters"),
    help: "Do not keep the feed's chapters file (<episode>.chapters.json) beside each episode.")
  var noChapters = false

  @Flag(
    name: .customLong("write-feed"),
    help: "Keep feed.xml in each podcast folder: a private feed of its downloaded episodes.")
  var writeFeed = false

  @Option(
    name: .customLong("feed-base-url"),
    help: ArgumentHelp(
      "The URL the Episodes folder is served at, for the links in feed.xml (default: relative links).",
      valueName: "url"))
  var feedBaseURL: String?

  @Flag(
    name: .customLong("write-page"),
    help: "Keep index.html in each podcast folder and in Episodes: pages to browse and play them.")
  var writePage = false

  @Flag(
    name: .customLong("info-json"),
    help: "Keep <episode>.info.json beside each episode: what the feed says of it and its podcast.")
  var infoJSON = false

  func validate() throws {
    if noTranscripts && allTranscripts {
      throw ValidationError("use --all-transcripts or --no-transcripts, not both")
    }
    do {
      try settings().check()
      _ = try FileNamer(template: nameTemplate)
      _ = try rate()
      _ = try feedBaseURL.map(FeedBaseURL.init)
    } catch {
      throw ValidationError(CommandFailure.message(for: error))
    }
  }

  /// The flags as the use cases take them.
  func settings() throws -> DownloadSettings {
    var settings = DownloadSettings()
    settings.concurrency = concurrency
    settings.perHost = perHost
    settings.nameTemplate = nameTemplate
    settings.bytesPerSecond = try rate()
    settings.noTags = noTags
    settings.noCover = noCover
    settings.noTranscripts = noTranscripts
    settings.allTranscripts = allTranscripts
    settings.noChapters = noChapters
    settings.writeFeed = writeFeed
    settings.feedBaseURL = try feedBaseURL.map(FeedBaseURL.init)
    settings.writePage = writePage
    settings.infoJSON = infoJSON
    return settings
  }

  /// Bytes per second for all of this run's downloads together.
  private func rate() throws -> Int64? {
    try limitRate.map { try TransferRate.bytesPerSecond($0) }
  }
}
