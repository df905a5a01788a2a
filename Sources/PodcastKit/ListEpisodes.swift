import Downloads
import Feeds
import Library
import Selection
import Source

/// `podcast episodes`: a feed's episodes, newest first, numbered as `download` and `mark`
/// take them, each with what the library holds of it. Only reads: listing never creates,
/// migrates or writes a library, so it works on a full disk or a read-only one.
///
/// Built for large feeds (the benchmark lists 20,000 episodes): the listing holds the feed's
/// own episode array and the indexes to show, never a filtered copy. The library's rows and
/// marks are read up front, but each episode's status is put together from them only when
/// asked, so a listing streamed as it is written builds no per-episode array on top.
public struct ListEpisodes: Sendable {
  public struct Listing: Sendable {
    public let podcast: Podcast
    /// Every episode of the feed, as parsed: shown through `indexes`.
    public let episodes: [Episode]
    /// The 1-based positions in `episodes` to show, in order: the filter and the limit
    /// applied, each keeping the feed's own number.
    public let indexes: [Int]
    /// Whether a filter chose the indexes (the limit alone does not count).
    public let filtered: Bool
    /// Why a paged feed's pages were not all read: the listing has the pages that were.
    public var pageProblem: FeedPageError?
    private let downloads: DownloadProgressReader
    private let marks: [String: EpisodeMark.State]
    /// Each episode's identity keys, by offset; empty when there is no library to match.
    private let keys: [[String]]

    fileprivate init(
      feed: Feed, indexes: [Int], filtered: Bool, downloads: DownloadProgressReader,
      marks: [String: EpisodeMark.State]
    ) {
      podcast = feed.podcast
      episodes = feed.episodes
      self.indexes = indexes
      self.filtered = filtered
      self.downloads = downloads
      self.marks = marks
      // Identity keys find an episode whose URL changed; without a library there is none.
      keys = downloads.hasLibrary ? EpisodeIdentity.distinctKeys(of: episodes) : []
    }

    /// Episodes in the feed, shown or not.
    public var total: Int { episodes.count }

    /// The status of the episode at 1-based `index`.
    public func status(at index: Int) -> ListedStatus {
      // Fields read in place: binding `episodes[index - 1]` copied the whole episode (a dozen
      // retains and releases) for its URL.
      ListedStatus(
        download: downloads.status(
          of: episodes[index - 1].enclosure.url, keys: keys.isEmpty ? [] : keys[index - 1]),
        mark: marks.isEmpty ? nil : marks[EpisodeMark.key(for: episodes[index - 1])])
    }
  }

  private let resolver: FeedResolver
  private let paths: LibraryPaths

  public init(resolver: FeedResolver, paths: LibraryPaths) {
    self.resolver = resolver
    self.paths = paths
  }

  /// `limit`: at most this many of the episodes the filter lets through, newest first.
  /// `allPages`: false reads a paged feed's first page only (`--no-pages`).
  public func run(
    feed: String, filter: EpisodeFilter = EpisodeFilter(), limit: Int? = nil,
    allPages: Bool = true
  ) async throws -> Listing {
    let resolved = try await resolver.resolve(feed, allPages: allPages)
    let episodes = resolved.feed.episodes
    // Nil without a filter, so the unfiltered listing keeps its fast path.
    let predicate = filter.isEmpty ? nil : try filter.predicate()
    // Indexes, not copies: the numbers stay the feed's own when filtered, and a copy of
    // 20,000 episodes would be 5 MB.
    var indexes =
      predicate.map { $0.indexes(in: episodes) } ?? Array(episodes.indices.map { $0 + 1 })
    if let limit { indexes = Array(indexes.prefix(limit)) }
    // Every state is read before the listing is returned: a library that cannot be read is
    // one error, not a listing that calls downloaded episodes new.
    let store = try LibraryStore(readingAt: paths)
    var listing = Listing(
      feed: resolved.feed, indexes: indexes, filtered: predicate != nil,
      downloads: try DownloadProgressReader(store: store, feedURL: resolved.location),
      marks: try store?.marks() ?? [:])
    listing.pageProblem = resolved.pageProblem
    return listing
  }
}
