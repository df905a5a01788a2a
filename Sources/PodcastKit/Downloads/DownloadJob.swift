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

  public init(
    url: String, title: String?, podcastTitle: String?, relativePath: String, mimeType: String?
  ) {
    self.url = url
    self.title = title
    self.podcastTitle = podcastTitle
    self.relativePath = relativePath
    self.mimeType = mimeType
  }
}

/// How one job ended.
public enum DownloadOutcome: Sendable, Equatable {
  case downloaded(file: String, bytes: Int64)
  case alreadyDownloaded(file: String)
  case failed(reason: String)
}

public struct DownloadResult: Sendable, Equatable {
  public var job: DownloadJob
  public var outcome: DownloadOutcome
}

/// Limits and patience of a batch of downloads.
public struct DownloadOptions: Sendable {
  public var concurrency = 4
  public var perHost = 2
  /// Tries per episode; transient failures (drops, timeouts, 5xx, 429) resume and retry.
  public var attempts = 3
  /// First back-off; doubles each time unless the server sends Retry-After.
  public var retryDelay: Duration = .seconds(1)
  /// A Retry-After longer than this is a failure for this run, not a wait.
  public var maxRetryAfter = 120

  public init() {}
}
