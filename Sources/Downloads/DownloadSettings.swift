import Basics
import Fetching
import Model
import Selection
import SideFiles

/// How one run fetches and names episodes: what `download` and `sync` were told, as values.
/// A subscription's own settings (`SubscriptionSettings`) apply on top of these in sync.
public struct DownloadSettings: Sendable {
  /// Downloads at once; nil: `ParallelDownloads.defaultConcurrency`, or a subscription's own
  /// setting in sync.
  public var concurrency: Int?
  /// Downloads at once from any one server, so none is hammered.
  public var perHost = ParallelDownloads.defaultPerHost
  public var nameTemplate = FileNamer.defaultTemplate
  /// One budget for all of the run's downloads together; nil: unlimited.
  public var bytesPerSecond: Int64?
  public var noTags = false
  public var noCover = false
  public var noTranscripts = false
  /// Every transcript the feed lists, not only the first.
  public var allTranscripts = false
  public var noChapters = false
  /// `--write-feed`: each podcast folder this run touches gets its `feed.xml`.
  public var writeFeed = false
  /// `--feed-base-url`: where the Episodes directory is served, for those feeds' links.
  public var feedBaseURL: FeedBaseURL?
  /// `--write-page`: each podcast folder this run touches gets its `index.html`, and the
  /// Episodes directory its index of them.
  public var writePage = false
  /// `--info-json`: each episode gets `<episode>.info.json` beside it.
  public var infoJSON = false

  public init() {}

  /// What this run was asked for about folder feeds; nil when nothing.
  public var feedRequest: FeedRequest? {
    writeFeed ? FeedRequest(baseURL: feedBaseURL) : nil
  }

  /// `job` with only the tags and side files this run writes.
  public func sideFiles(of job: DownloadJob) -> DownloadJob {
    var job = job
    if noTags { job.tagging = nil }
    if noTranscripts {
      job.transcripts = []
    } else if !allTranscripts {
      job.transcripts = Array(job.transcripts.prefix(1))
    }
    if noChapters { job.chaptersURL = nil }
    if noCover { job.folderCoverURL = nil }
    return job
  }

  /// Throws `FilterError.outOfRange` for a concurrency or per-server share out of bounds.
  public func check() throws(FilterError) {
    if let concurrency { try ParallelDownloads.check(concurrency, setting: "concurrency") }
    try ParallelDownloads.check(perHost, setting: "per-host")
  }

  public func namer() throws -> FileNamer {
    try FileNamer(template: nameTemplate)
  }

  public var options: DownloadOptions {
    var options = DownloadOptions()
    options.concurrency = concurrency ?? ParallelDownloads.defaultConcurrency
    options.perHost = perHost
    return options
  }
}
