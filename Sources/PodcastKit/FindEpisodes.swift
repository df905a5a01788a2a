import Downloads
import Feeds
import Foundation
import FullText
import Model
import Selection
import SideFiles
import Store

/// `podcast find`: the library's episodes that hold the query's words, best first, each with
/// what `episodes` would show of it (its index, its state) and the moments the words are at.
///
/// Reads the library (opened for reading only) through its full-text index (`FindIndex`).
/// A library from before the index, or whose build was cut short, is indexed first, which
/// writes: `building` hears the progress.
public struct FindEpisodes: Sendable {
  /// What narrows the search beside the query.
  public struct Options: Sendable {
    /// A subscription, as every command takes one (name, prefix or number).
    public var podcast: String?
    /// Where to look; nil: everywhere.
    public var fields: Set<FindField>?
    /// `--since`, `--until`: a date (`2024-05-01`, `--until` taking that whole day) or an age.
    public var since: String?
    public var until: String?
    /// Only episodes downloaded and still on disk.
    public var downloaded = false
    public var limit = FindEpisodes.defaultLimit

    public init(
      podcast: String? = nil, fields: Set<FindField>? = nil, since: String? = nil,
      until: String? = nil, downloaded: Bool = false, limit: Int = FindEpisodes.defaultLimit
    ) {
      self.podcast = podcast
      self.fields = fields
      self.since = since
      self.until = until
      self.downloaded = downloaded
      self.limit = limit
    }
  }

  public static let defaultLimit = 20

  /// One episode found.
  public struct Found: Sendable {
    /// The podcast's title (the subscription's name when the feed gave none).
    public var podcast: String
    /// The subscription's name, as `download NAME INDEX` takes it.
    public var subscription: String
    public var feedURL: String
    /// The episode's index as `episodes` prints it (1 is the newest), from the feed the last
    /// sync kept; nil for an episode the feed no longer lists.
    public var index: Int?
    public var guid: String?
    public var title: String?
    /// The title with the query's words marked, when it holds any.
    public var titleMatch: Snippet?
    public var published: Date?
    /// As `episodes` says: `new`, `partial`, `downloaded`, `deleted` or `skipped`.
    public var state: String
    /// The downloaded file, when it is on disk.
    public var file: String?
    /// The enclosure's URL as the library last knew it.
    public var url: String?
    /// Higher is better.
    public var score: Double
    /// Up to three places the words are at.
    public var moments: [Moment]
  }

  private let paths: LibraryPaths

  public init(paths: LibraryPaths) {
    self.paths = paths
  }

  /// Refuses a query with nothing to look for (`*`, `-word` alone, punctuation) and a limit
  /// below 1, before anything is opened.
  public static func check(query: [String], limit: Int) throws {
    if FindQuery(query).isEmpty {
      throw FindError.nothingToFind(query: query.joined(separator: " "))
    }
    if limit < 1 { throw FindError.badLimit(limit) }
  }

  /// The episodes that hold every word of `query`, best first. A folder without a library
  /// has nothing to find.
  public func run(
    _ query: [String], options: Options = Options(),
    building progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
  ) throws -> [Found] {
    try Self.check(query: query, limit: options.limit)
    guard var store = try LibraryStore(readingAt: paths) else { return [] }
    if try FindIndex(store: store).readiness() != .ready {
      // The first `find` of a library from before the index: it is built, which writes.
      store = try LibraryStore(paths: paths)
      _ = try FindIndex(store: store).build(
        rebuilding: false, sideFiles: Self.readSideFiles, progress: progress)
    }
    var filter = FindIndex.Filter(fields: options.fields, downloaded: options.downloaded)
    if let podcast = options.podcast {
      filter.subscriptionId = try Subscriptions(store: store).matching(podcast).id
    }
    let now = Date()
    filter.since = try options.since.map { try DateBound.resolve($0, setting: "since", now: now) }
    filter.until = try options.until.map { try DateBound.end($0, setting: "until", now: now) }
    // A downloaded episode whose file was removed by hand is no longer downloaded: asked for
    // more, so the limit still fills.
    let asked = options.downloaded ? options.limit * 2 + 10 : options.limit
    let hits = try FindIndex(store: store).search(FindQuery(query), filter: filter, limit: asked)
    var context = try Context(store: store)
    var found = try hits.map { try context.found($0) }
    if options.downloaded { found = found.filter { $0.state == "downloaded" } }
    return Array(found.prefix(options.limit))
  }

  /// An episode's side files, as `find` indexes them: its chapters and its best transcript.
  static let readSideFiles: FindIndex.SideFileReader = { episodeFile in
    SideFileNames.existing(besides: episodeFile)
  }

  /// What the results need beside the hits, read once: subscriptions, downloads, marks and
  /// plays, and each result's podcast's kept feed (for its indexes), read when first needed.
  private struct Context {
    let store: LibraryStore
    let subscriptions: [Int64: Subscription]
    let downloads: [DownloadRecord]
    let marks: [String: EpisodeMark.State]
    let plays: [String: PlayState]
    var readers: [String: DownloadProgressReader] = [:]
    var indexes: [Int64: [String: Int]] = [:]

    init(store: LibraryStore) throws {
      self.store = store
      subscriptions = Dictionary(
        try Subscriptions(store: store).all().map { ($0.id, $0) },
        uniquingKeysWith: { first, _ in first })
      downloads = try DownloadRows(store: store).all()
      marks = try EpisodeMarks(store: store).all()
      plays = try PlayStates(store: store).all()
    }

    mutating func found(_ hit: FindIndex.Hit) throws -> Found {
      let episode = hit.episode
      let subscription = subscriptions[episode.subscriptionId]
      let feedURL = subscription?.feedURL ?? ""
      let keys = episode.identityKeys
      let reader = reader(feedURL: feedURL)
      var download = reader.status(of: episode.enclosureURL ?? "", keys: keys)
      if download.state == .new, let file = episode.downloadedFile {
        download =
          FileManager.default.fileExists(atPath: file)
          ? EpisodeDownloadStatus(state: .downloaded, progress: 1, file: file)
          : EpisodeDownloadStatus(state: .deleted, progress: 0, file: nil)
      }
      // Pruned by retention, the library no longer knows it had the file; the index does.
      if download.state == .new, hit.pruned {
        download = EpisodeDownloadStatus(state: .deleted, progress: 0, file: nil)
      }
      let status = ListedStatus(
        download: download, mark: marks[episode.key],
        play: ListedStatus.play(keys: keys, in: plays))
      let listed: Int?
      switch hit.index {
      case .known(let index): listed = index
      case .unknown: listed = index(of: episode, subscription: subscription)
      }
      return Found(
        podcast: subscription?.title ?? subscription?.name ?? "",
        subscription: subscription?.name ?? "", feedURL: feedURL, index: listed,
        guid: episode.guid, title: episode.title, titleMatch: hit.title,
        published: episode.published, state: status.state,
        file: status.state == "downloaded" ? download.file : nil, url: episode.enclosureURL,
        score: hit.score, moments: hit.moments)
    }

    private mutating func reader(feedURL: String) -> DownloadProgressReader {
      if let reader = readers[feedURL] { return reader }
      // The show's other feeds too, as `episodes` reads them (a moved feed's downloads).
      let sameShow = (try? FinishedDownloads(store: store).feedsOfSameShow(as: feedURL)) ?? []
      let reader = DownloadProgressReader(
        store: store, feedURL: feedURL, rows: downloads, sameShow: sameShow)
      readers[feedURL] = reader
      return reader
    }

    /// The episode's position in the feed the last sync kept, as `episodes` numbers it
    /// offline (every kept page, unless the subscription reads page one only): for a paged
    /// feed, whose indexes the index does not keep.
    private mutating func index(of episode: SeenEpisode, subscription: Subscription?) -> Int? {
      guard let subscription else { return nil }
      if indexes[subscription.id] == nil {
        indexes[subscription.id] = (try? keptIndexes(subscription)) ?? [:]
      }
      let byKey = indexes[subscription.id] ?? [:]
      return byKey[episode.key] ?? episode.identityKeys.lazy.compactMap { byKey[$0] }.first
    }

    private func keptIndexes(_ subscription: Subscription) throws -> [String: Int] {
      guard let copy = try KeptFeeds(store: store).copy(subscriptionId: subscription.id) else {
        return [:]
      }
      let allPages =
        try SavedSettings(store: store).of(subscriptionId: subscription.id).pages != false
      let feed = try SubscribedFeed.parse(
        copy.feed, allPages: allPages && copy.feed.pages.count > 1
      ).feed
      var byKey: [String: Int] = [:]
      for (offset, listed) in feed.episodes.enumerated() {
        for key in EpisodeIdentity.identityKeys(
          guid: listed.guid, enclosureURL: listed.enclosure.url, title: listed.title,
          published: listed.published) where byKey[key] == nil
        {
          byKey[key] = offset + 1
        }
      }
      return byKey
    }
  }
}

/// `podcast find --rebuild`: the index made again from the kept feeds and the files on disk.
public struct RebuildFindIndex: Sendable {
  /// What the rebuild indexed, and what the index costs on disk.
  public struct Summary: Sendable, Equatable {
    public var podcasts: Int
    public var episodes: Int
    /// Bytes of text indexed.
    public var textBytes: Int64
    /// The index's own size (FTS5's structures and the timelines), when SQLite can tell.
    public var indexBytes: Int64?
    /// The size of the text it keeps for snippets, when SQLite can tell.
    public var storedTextBytes: Int64?
  }

  private let paths: LibraryPaths

  public init(paths: LibraryPaths) {
    self.paths = paths
  }

  public func run(progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws
    -> Summary
  {
    let store = try LibraryStore(paths: paths)
    let built = try FindIndex(store: store).build(
      rebuilding: true, sideFiles: FindEpisodes.readSideFiles, progress: progress)
    let summary = built ?? FindIndex.BuildSummary()
    return Summary(
      podcasts: summary.podcasts, episodes: summary.episodes, textBytes: summary.textBytes,
      indexBytes: summary.indexBytes, storedTextBytes: summary.storedTextBytes)
  }
}

/// Why `find` cannot run. Each case reads as the one line the user sees.
public enum FindError: SentenceError, Equatable {
  case nothingToFind(query: String)
  case badLimit(Int)

  public var description: String {
    switch self {
    case .nothingToFind(let query):
      return
        "\"\(query)\" has no word to find: give at least one word that must match (-word only leaves words out)"
    case .badLimit(let limit): return "--limit \(limit): give at least 1"
    }
  }
}
