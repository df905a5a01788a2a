/// What a download left behind for the next run: how far it got and what the server said
/// about the file, so a resume can prove it is still the same file.
public struct LedgerEntry: Sendable, Equatable {
  public var url: String
  public var state: DownloadState
  public var bytes: Int64
  public var total: Int64?
  public var etag: String?
  public var lastModified: String?
  /// The finished file, once done.
  public var file: String?
  public var error: String?
  public var podcastTitle: String?
  public var episodeTitle: String?

  public init(
    url: String, state: DownloadState, bytes: Int64 = 0, total: Int64? = nil, etag: String? = nil,
    lastModified: String? = nil, file: String? = nil, error: String? = nil,
    podcastTitle: String? = nil, episodeTitle: String? = nil
  ) {
    self.url = url
    self.state = state
    self.bytes = bytes
    self.total = total
    self.etag = etag
    self.lastModified = lastModified
    self.file = file
    self.error = error
    self.podcastTitle = podcastTitle
    self.episodeTitle = episodeTitle
  }
}

/// Where downloads are remembered between runs. The library's store is the real one; the
/// manager works without one too (nothing is remembered).
public protocol DownloadLedger: Sendable {
  func entry(for url: String) throws -> LedgerEntry?
  func save(_ entry: LedgerEntry) throws
  /// Many progress updates in one write (called about once a second): only `state`, `bytes`
  /// and `total` change; rows that do not exist yet are created.
  func saveProgress(_ entries: [LedgerEntry]) throws
}
