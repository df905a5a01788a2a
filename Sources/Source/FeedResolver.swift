import Basics
import Feeds
import Search
import Transfer

/// A feed loaded from whatever the user typed as FEED.
public struct ResolvedFeed: Sendable {
  public var feed: Feed
  /// The feed URL (after redirects) or the local path it was read from.
  public var location: String
  public var validators: Validators
  /// A paged feed's pages, page one first (just page one for a feed that is not paged, none for
  /// a local file).
  public var pages: [FeedPages.Page] = []
  /// Why the pages were not read to the end, if they were not: `feed` holds the episodes of
  /// the pages read. A front end says so; `isFailure` ones mean episodes may be missing.
  public var pageProblem: FeedPageError?
  /// Whether `feed` lists every page's episodes: a feed that is not paged, or a paged one whose
  /// chain was followed to its end (a loop counts as the end; a failed page, the page cap or
  /// reading page one only do not).
  public var readToEnd: Bool
  /// Page one's document as served, when asked for (`keepingDocument`) and fetched from the
  /// web: for the library to keep a copy.
  public var document: FeedDocument?
  /// A paged feed's later pages as served, in order, when asked for (`keepingDocument`).
  public var laterDocuments: [FeedDocument] = []

  package init(
    feed: Feed, location: String, validators: Validators, pages: [FeedPages.Page] = [],
    pageProblem: FeedPageError? = nil, document: FeedDocument? = nil
  ) {
    self.feed = feed
    self.location = location
    self.validators = validators
    self.pages = pages
    self.pageProblem = pageProblem
    self.readToEnd = feed.pageLinks.next == nil
    self.document = document
  }
}

/// Turns FEED text into a parsed feed: URL, Apple Podcasts link, local file or subscription.
///
/// The lookups that need other parts of the library come in as closures so this type
/// depends on neither the directory clients nor the store.
public struct FeedResolver: Sendable {
  public typealias ApplePodcastsLookup = @Sendable (_ id: String) async throws -> String
  /// The feed URL of a show an open directory names (`podcastindex:`, `guid:`, `fyyd:`).
  public typealias DirectoryLookup =
    @Sendable (_ reference: DirectoryReference) async throws
    -> String
  public typealias SubscriptionLookup = @Sendable (_ nameOrNumber: String) throws -> String
  /// Whether the subscription reads a paged feed's later pages (`set NAME --no-pages`).
  public typealias SubscriptionPaging = @Sendable (_ nameOrNumber: String) throws -> Bool

  public let loader: FeedLoader
  private let applePodcastsFeedURL: ApplePodcastsLookup
  private let directoryFeedURL: DirectoryLookup
  private let subscriptionFeedURL: SubscriptionLookup
  private let subscriptionReadsPages: SubscriptionPaging

  public init(
    loader: FeedLoader, applePodcastsFeedURL: @escaping ApplePodcastsLookup,
    directoryFeedURL: @escaping DirectoryLookup = { throw SearchError.notListed($0) },
    subscriptionFeedURL: @escaping SubscriptionLookup,
    subscriptionReadsPages: @escaping SubscriptionPaging = { _ in true }
  ) {
    self.loader = loader
    self.applePodcastsFeedURL = applePodcastsFeedURL
    self.directoryFeedURL = directoryFeedURL
    self.subscriptionFeedURL = subscriptionFeedURL
    self.subscriptionReadsPages = subscriptionReadsPages
  }

  /// `allPages`: a paged feed (RFC 5005) is read to its last page, so indexes count across the
  /// whole feed; false (`--no-pages`) reads page one only, as does a subscription set so.
  /// A feed file on disk is read alone: offline use never reaches for the network.
  /// `keepingDocument`: a feed fetched from the web comes with page one's bytes (`document`).
  public func resolve(_ text: String, allPages: Bool = true, keepingDocument: Bool = false)
    async throws -> ResolvedFeed
  {
    switch try FeedSource.classify(text) {
    case .file(let path):
      return try load(path)
    case .url(let url):
      return try await fetch(url, allPages: allPages, keepingDocument: keepingDocument)
    case .applePodcasts(let id):
      return try await fetch(
        try await applePodcastsFeedURL(id), allPages: allPages, keepingDocument: keepingDocument)
    case .directory(let reference):
      return try await fetch(
        try await directoryFeedURL(reference), allPages: allPages, keepingDocument: keepingDocument)
    case .subscription(let name):
      // A subscription may point at a feed file on disk as well as at a URL.
      let location = try subscriptionFeedURL(name)
      if case .file(let path) = try FeedSource.classify(location) { return try load(path) }
      // The setting is looked up only for a feed that turns out to be paged.
      return try await fetch(
        location, allPages: allPages && (try subscriptionReadsPages(name)),
        keepingDocument: keepingDocument)
    }
  }

  private func load(_ path: String) throws -> ResolvedFeed {
    ResolvedFeed(feed: try loader.load(file: path), location: path, validators: Validators())
  }

  private func fetch(
    _ url: String, allPages: @autoclosure () throws -> Bool, keepingDocument: Bool
  ) async throws -> ResolvedFeed {
    let (fetchedFeed, finalURL, validators, _, document) = try await loader.fetchWhole(
      url: url, keepingDocument: keepingDocument)
    var feed = fetchedFeed
    var resolved = ResolvedFeed(
      feed: feed, location: finalURL, validators: validators,
      pages: [.init(url: finalURL, validators: validators, episodeCount: feed.episodes.count)],
      document: document)
    if feed.pageLinks.next != nil, try allPages() {
      var pager = PagedFeedLoader(loader: loader)
      pager.keepsDocuments = keepingDocument
      let paged = await pager.pages(
        first: feed, url: finalURL, validators: validators, origin: url)
      feed = paged.feed
      resolved.pages = paged.pages
      resolved.pageProblem = paged.stop
      resolved.readToEnd = paged.readToEnd
      resolved.laterDocuments = paged.laterDocuments
    }
    feed.podcast.feedURL = finalURL
    resolved.feed = feed
    return resolved
  }
}
