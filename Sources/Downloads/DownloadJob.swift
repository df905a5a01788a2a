import Basics
import Feeds
import Foundation
import Model
import SideFiles
import Tags

/// One episode to fetch, with everything needed to name and describe it.
public struct DownloadJob: Sendable, Hashable {
  public var url: String
  public var title: String?
  public var podcastTitle: String?
  /// Where it goes, relative to the Episodes directory (from `FileNamer`); a number is added
  /// when another file already has the name.
  public var relativePath: String
  /// The type the feed announced: an HTML enclosure is not mistaken for an error page.
  public var mimeType: String?
  /// The size the feed announced; a body far smaller is not the episode.
  public var declaredLength: Int64?
  /// The feed that lists the episode (a URL, or a local file's path).
  public var feedURL: String?
  /// Which show that feed is (`ShowIdentity`): an episode of the same show downloaded from
  /// another feed URL is this one where their identity keys agree. Nil: matched within its
  /// feed only.
  public var show: String?
  /// Every identity key the episode answers to, its own first (see `EpisodeIdentity`), minus
  /// any the feed shares between several episodes: a finished download under any of them is
  /// this episode, whatever URL it had then.
  public var identityKeys: [String]
  /// The subscription's episode row to record the file in (sync).
  public var subscriptionEpisode: SubscriptionEpisode?
  /// What to write into the file once verified; nil leaves it exactly as served.
  public var tagging: TagRequest?
  /// The podcast's picture, kept as `cover.<ext>` in the episode's folder; nil for none.
  public var folderCoverURL: String?
  /// Transcripts to keep beside the episode file, in the feed's order; empty for none.
  public var transcripts: [Transcript]
  /// The Podcasting 2.0 chapters file to keep beside the episode file and, when tagging, to
  /// write into its tag (fetched once for both); nil for none.
  public var chaptersURL: String?
  /// When the feed says the episode came out: playlists list the newest first.
  public var published: Date?
  /// What the feed says about the episode, kept with the finished download for the folder's
  /// own feed (`--write-feed`); nil when this run writes none.
  public var archive: ArchivedEpisode?
  /// What the feed says about the episode and its podcast, for `<episode>.info.json` beside
  /// it (`--info-json`); nil for no such file.
  public var info: EpisodeInfo?
  /// The row this process queued the job under already (sync queues what it plans with the
  /// feed's episodes); nil for the download manager to queue it.
  public var queuedAs: DownloadKey?

  public init(
    url: String, title: String?, podcastTitle: String?, relativePath: String, mimeType: String?,
    declaredLength: Int64? = nil, feedURL: String? = nil, identityKeys: [String] = [],
    subscriptionEpisode: SubscriptionEpisode? = nil, tagging: TagRequest? = nil,
    folderCoverURL: String? = nil, transcripts: [Transcript] = [], chaptersURL: String? = nil,
    published: Date? = nil, archive: ArchivedEpisode? = nil, info: EpisodeInfo? = nil
  ) {
    self.url = url
    self.title = title
    self.podcastTitle = podcastTitle
    self.relativePath = relativePath
    self.mimeType = mimeType
    self.declaredLength = declaredLength
    self.feedURL = feedURL
    self.identityKeys = identityKeys
    self.subscriptionEpisode = subscriptionEpisode
    self.tagging = tagging
    self.folderCoverURL = folderCoverURL
    self.transcripts = transcripts
    self.chaptersURL = chaptersURL
    self.published = published
    self.archive = archive
    self.info = info
  }
}

/// How one job ended.
public enum DownloadOutcome: Sendable, Equatable {
  /// `report`: the tags and side files written.
  case downloaded(file: String, bytes: Int64, report: SideFileReport = .none)
  case alreadyDownloaded(file: String)
  case failed(DownloadFailure)
}

public struct DownloadResult: Sendable, Equatable {
  public var job: Summary
  public var outcome: DownloadOutcome
  /// For an episode that was already here: the side files this run added because they were
  /// missing (a fresh download has them in its outcome).
  public var sideFiles: SideFileReport = .none

  /// What a run keeps of a job once it ended: what its report, its playlists and `--exec` say
  /// of it. The tags, descriptions and side-file plans the download needed go with the
  /// download, so a run's results grow by a few names per episode, not by its show notes.
  public struct Summary: Sendable, Equatable {
    public var url: String
    public var title: String?
    public var podcastTitle: String?
    public var published: Date?
    /// The subscription's episode the job was for (sync).
    public var subscriptionEpisode: SubscriptionEpisode?

    public init(_ job: DownloadJob) {
      url = job.url
      title = job.title
      podcastTitle = job.podcastTitle
      published = job.published
      subscriptionEpisode = job.subscriptionEpisode
    }
  }

  public init(job: DownloadJob, outcome: DownloadOutcome, sideFiles: SideFileReport = .none) {
    self.job = Summary(job)
    self.outcome = outcome
    self.sideFiles = sideFiles
  }
}

extension [DownloadResult] {
  /// Files this run put in place or found in place, as the podcast folders' views take them
  /// (`FolderViews.update`), each with what the run asks of its folder's views: those a finish
  /// round listed in the views written on arrival (`FinishBatch.unlisted`) are `.listed`, the
  /// others `.changed`. Asked once, at the end of the run.
  public func touchedFiles(request: (DownloadResult) -> FolderRequest) -> [TouchedFile] {
    var finished: [String] = []
    for result in self {
      if case .downloaded(let file, _, _) = result.outcome { finished.append(file) }
    }
    let unlisted = Set(EpisodeDownload.finishing.unlisted(finished))
    return compactMap { result in
      switch result.outcome {
      case .downloaded(let file, _, _):
        TouchedFile(file, unlisted.contains(file) ? .changed : .listed, request: request(result))
      case .alreadyDownloaded(let file): TouchedFile(file, .changed, request: request(result))
      case .failed: nil
      }
    }
  }

  /// Files this run put in place, for `--exec`.
  public var downloadedFiles: [(file: String, title: String?, podcast: String?)] {
    compactMap { result in
      guard case .downloaded(let file, _, _) = result.outcome else { return nil }
      return (file, result.job.title, result.job.podcastTitle)
    }
  }
}
