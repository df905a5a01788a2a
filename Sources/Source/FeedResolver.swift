import Basics
import Feeds
import Transfer

/// A feed loaded from whatever the user typed as FEED.
public struct ResolvedFeed: Sendable {
  public var feed: Feed
  /// The feed URL (after redirects) or the local path it was read from.
  public var location: String
  public var validators: Validators
  /// The document as served, when asked for (`resolve(_:keepingDocument:)`) and fetched from
  /// the web: for the library to keep a copy.
  public var document: FeedDocument?

  package init(
    feed: Feed, location: String, validators: Validators, document: FeedDocument? = nil
  ) {
    self.feed = feed
    self.location = location
    self.validators = validators
    self.document = document
  }
}

/// Turns FEED text into a parsed feed: URL, Apple Podcasts link, local file or subscription.
///
/// The two lookups that need other parts of the library come in as closures so this type
/// depends on neither the iTunes client nor the store.
public struct FeedResolver: Sendable {
  public typealias ApplePodcastsLookup = @Sendable (_ id: String) async throws -> String
  public typealias SubscriptionLookup = @Sendable (_ nameOrNumber: String) throws -> String

  public let loader: FeedLoader
  private let applePodcastsFeedURL: ApplePodcastsLookup
  private let subscriptionFeedURL: SubscriptionLookup

  public init(
    loader: FeedLoader, applePodcastsFeedURL: @escaping ApplePodcastsLookup,
    subscriptionFeedURL: @escaping SubscriptionLookup
  ) {
    self.loader = loader
    self.applePodcastsFeedURL = applePodcastsFeedURL
    self.subscriptionFeedURL = subscriptionFeedURL
  }

  /// `keepingDocument`: a feed fetched from the web comes with its bytes (`document`).
  public func resolve(_ text: String, keepingDocument: Bool = false) async throws
    -> ResolvedFeed
  {
    switch try FeedSource.classify(text) {
    case .file(let path):
      return try load(path)
    case .url(let url):
      return try await fetch(url, keepingDocument: keepingDocument)
    case .applePodcasts(let id):
      return try await fetch(
        try await applePodcastsFeedURL(id), keepingDocument: keepingDocument)
    case .subscription(let name):
      // A subscription may point at a feed file on disk as well as at a URL.
      let location = try subscriptionFeedURL(name)
      if case .file(let path) = try FeedSource.classify(location) { return try load(path) }
      return try await fetch(location, keepingDocument: keepingDocument)
    }
  }

  private func load(_ path: String) throws -> ResolvedFeed {
    ResolvedFeed(feed: try loader.load(file: path), location: path, validators: Validators())
  }

  private func fetch(_ url: String, keepingDocument: Bool) async throws -> ResolvedFeed {
    guard
      case .fetched(var feed, let finalURL, let validators, _, let document) =
        try await loader.fetch(url: url, keepingDocument: keepingDocument)
    else {
      // Only a conditional request can come back 304, and this one sent no validators.
      throw TransferError.network(
        url: url, reason: "server answered 304 to an unconditional request")
    }
    feed.podcast.feedURL = finalURL
    return ResolvedFeed(
      feed: feed, location: finalURL, validators: validators, document: document)
  }
}
