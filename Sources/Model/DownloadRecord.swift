import Basics
import Foundation

/// The persisted progress of one download, keyed by its episode (`key`), so `podcast status`
/// in another process sees it and an interrupted download resumes from `partialPath`. The URL
/// is where the episode is fetched from now: a feed may move it, the row stays.
public struct DownloadRecord: Codable, Sendable, Equatable {
  public var key: DownloadKey
  public var url: String
  public var podcastTitle: String
  public var episodeTitle: String
  public var state: DownloadState
  public var bytes: Int64
  public var total: Int64?
  public var partialPath: String
  /// The finished file, when `state` is `done`.
  public var file: String?
  /// Validators of the partial file's response, so a resume asks for the same bytes (If-Range).
  public var etag: String?
  public var lastModified: String?
  public var error: String?
  public var updatedAt: Date
  /// The `EpisodeIdentity` key of the episode, when the download came from a known feed.
  public var episodeKey: String?
  /// The process working on it now; nil when nobody is.
  public var pid: Int32?
  /// The feed the episode was listed in, when known.
  public var feedURL: String?
  /// When the feed says the episode was published, when known (orders folder playlists).
  public var published: Date?
  /// What the download takes from its feed beyond these columns (`DownloadDetails` as JSON),
  /// so it starts or resumes the same after a 304; nil in rows written before it was kept.
  public var details: String?
  /// What the feed said about the episode (`ArchivedEpisode` as JSON), kept after it finished
  /// for the folder's own feed; nil when no run that fetched it wrote one.
  public var archive: String?

  /// `key` nil: the key a new row of this download gets (`DownloadKey(feedURL:...)`).
  public init(
    key: DownloadKey? = nil, url: String, podcastTitle: String, episodeTitle: String,
    state: DownloadState = .queued,
    bytes: Int64 = 0, total: Int64? = nil, partialPath: String, file: String? = nil,
    etag: String? = nil, lastModified: String? = nil, error: String? = nil,
    updatedAt: Date = Date(), episodeKey: String? = nil, pid: Int32? = nil,
    feedURL: String? = nil, published: Date? = nil, details: String? = nil,
    archive: String? = nil
  ) {
    self.key = key ?? DownloadKey(feedURL: feedURL, episodeKey: episodeKey, url: url)
    self.url = url
    self.podcastTitle = podcastTitle
    self.episodeTitle = episodeTitle
    self.state = state
    self.bytes = bytes
    self.total = total
    self.partialPath = partialPath
    self.file = file
    self.etag = etag
    self.lastModified = lastModified
    self.error = error
    self.updatedAt = updatedAt
    self.episodeKey = episodeKey
    self.pid = pid
    self.feedURL = feedURL
    self.published = published
    self.details = details
    self.archive = archive
  }

  /// Fraction done from 0 to 1, or nil when the size is unknown (done is always 1).
  public var progress: Double? {
    if state == .done { return 1 }
    guard let total, total > 0 else { return nil }
    return min(1, Double(bytes) / Double(total))
  }
}
