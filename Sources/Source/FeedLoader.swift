import Basics
import Feeds
import Foundation
import Transfer

/// Fetches and parses feeds, from the network or from a local file.
public struct FeedLoader: Sendable {
  /// The outcome of fetching a feed over HTTP.
  public enum Fetch: Sendable {
    /// The server answered 304 to our validators: nothing changed.
    case notModified
    /// A fresh copy. `url` is where it finally came from; `movedTo` is set when a permanent
    /// redirect (301/308) says the feed lives somewhere else now. `document`: the bytes as
    /// served, when asked for (`keepingDocument`), for the library's copy of the feed.
    case fetched(
      Feed, url: String, validators: Validators, movedTo: String?, document: FeedDocument?)
  }

  private let http: HTTPClient
  /// A larger feed waits in a temporary file while it is parsed, so fetching one by URL costs
  /// no more memory than reading it from disk.
  package static let inMemoryFeedBytes = 2 << 20

  public init(http: HTTPClient = .shared) {
    self.http = http
  }

  /// `keepingDocument`: the answer holds the document's bytes too (else they go as soon as it
  /// is parsed: a large one waits in a temporary file). A transient failure (5xx, a timeout, a
  /// dropped connection) is tried again as `retry` says.
  /// `answered`: the answer to a first attempt already made (`start`), used as that attempt's.
  public func fetch(
    url: String, validators: Validators? = nil, keepingDocument: Bool = false,
    retry: RetryPolicy = .once, answered: Result<HTTPResponse, Error>? = nil
  ) async throws -> Fetch {
    var answered = answered
    return try await retry.run {
      if let first = answered {
        answered = nil
        return try fetched(first.get(), url: url, keepingDocument: keepingDocument)
      }
      return try await fetchOnce(url: url, validators: validators, keepingDocument: keepingDocument)
    }
  }

  /// Starts a first attempt at `fetch` without waiting for it (`HTTPClient.start`): the
  /// answer, heard on the transfer thread, is a 304 to take as it is or goes to `fetch` as
  /// `answered`.
  package func start(
    url: String, validators: Validators,
    completion: @escaping @Sendable (Result<HTTPResponse, Error>) -> Void
  ) {
    http.start(
      fetching: url, validators: validators, spoolAbove: Self.inMemoryFeedBytes,
      completion: completion)
  }

  /// The whole feed, asked for without validators (`fetch`'s other arguments as there).
  public func fetchWhole(url: String, keepingDocument: Bool = false, retry: RetryPolicy = .once)
    async throws -> (
      feed: Feed, url: String, validators: Validators, movedTo: String?, document: FeedDocument?
    )
  {
    let fetched = try await fetch(url: url, keepingDocument: keepingDocument, retry: retry)
    guard case .fetched(let feed, let finalURL, let validators, let movedTo, let document) = fetched
    else {
      // Only a conditional request can come back 304, and this one sent no validators.
      throw TransferError.network(
        url: url, reason: "server answered 304 to an unconditional request")
    }
    return (feed, finalURL, validators, movedTo, document)
  }

  private func fetchOnce(url: String, validators: Validators?, keepingDocument: Bool)
    async throws -> Fetch
  {
    let response = try await http.fetch(
      url, validators: validators, spoolAbove: Self.inMemoryFeedBytes)
    return try fetched(response, url: url, keepingDocument: keepingDocument)
  }

  /// What `response`, the answer to a request for the feed at `url`, says.
  private func fetched(_ response: HTTPResponse, url: String, keepingDocument: Bool) throws
    -> Fetch
  {
    if response.notModified { return .notModified }
    let feed: Feed
    do {
      if let spooled = response.spooled {
        feed = try FeedParser.parse(
          descriptor: spooled.descriptor, name: url, baseURL: response.url)
      } else {
        feed = try FeedParser.parse(response.body, baseURL: response.url)
      }
    } catch let error as FeedError {
      throw FeedLoadError.unreadable(source: url, reason: error)
    }
    return .fetched(
      feed, url: response.url, validators: response.validators,
      movedTo: permanentTarget(of: response.redirects),
      document: keepingDocument
        ? FeedDocument(url: response.url, body: response.body, spooled: response.spooled) : nil)
  }

  public func load(file path: String) throws -> Feed {
    do {
      // Relative links resolve against the file, so they are listed rather than dropped.
      var feed = try FeedParser.parse(
        contentsOfFile: path, baseURL: URL(fileURLWithPath: path).absoluteString)
      feed.podcast.feedURL = path
      return feed
    } catch let error as FeedError {
      throw FeedLoadError.unreadable(source: path, reason: error)
    }
  }

  /// The end of the leading run of permanent redirects; a temporary hop stops the run, since
  /// only a permanent move should change what a subscription points at.
  private func permanentTarget(of redirects: [(status: Int, url: String)]) -> String? {
    var target: String?
    for hop in redirects {
      guard hop.status == 301 || hop.status == 308 else { break }
      target = hop.url
    }
    return target
  }
}

/// Why a feed could not be loaded, with the URL or path it came from.
public enum FeedLoadError: SentenceError {
  case unreadable(source: String, reason: FeedError)
  /// The temporary file a large feed waited in could not be read back.
  case spoolUnreadable(source: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let source, let reason): return "\(source): \(reason)"
    case .spoolUnreadable(let source, let reason):
      return "\(source): cannot read back the temporary copy of the feed: \(reason)"
    }
  }
}
