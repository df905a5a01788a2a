import Basics
import Foundation
import Transfer

/// Talks to the iTunes Search API: finds podcasts by term and resolves iTunes ids to feeds.
/// The caller chooses the base URL (the CLI reads it from the environment; tests point it at
/// a loopback server). Results are values; the client never prints.
public struct ITunesClient: DirectoryClient {
  public static let defaultBaseURL = "https://itunes.apple.com"
  public static let defaultLimit = 10
  public static let defaultCountry = "US"
  /// Apple's documented bounds for `limit`.
  public static let limitRange = 1...200

  /// Fetches a URL into memory; throws `TransferError` for failures and statuses >= 400.
  public typealias Fetch = @Sendable (String) async throws -> HTTPResponse

  public let baseURL: String
  public var directory: Directory { .apple }
  private let fetch: Fetch

  /// `fetch` is replaceable so tests can feed canned answers without a network.
  public init(
    baseURL: String = ITunesClient.defaultBaseURL,
    fetch: @escaping Fetch = { url in try await HTTPClient.shared.fetch(url) }
  ) {
    var base = baseURL.trimmingCharacters(in: .whitespacesAndNewlines)
    while base.hasSuffix("/") { base.removeLast() }
    self.baseURL = base
    self.fetch = fetch
  }

  /// Checks the arguments of a search before anything goes over the wire, so the CLI can
  /// report them as usage errors.
  public static func validate(term: String, limit: Int, country: String) throws(SearchError) {
    if term.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw .emptyTerm }
    if !limitRange.contains(limit) { throw .limitOutOfRange(limit) }
    if !isCountryCode(country) { throw .invalidCountry(country) }
  }

  /// Podcasts matching `term` in the store of `country`, at most `limit` of them, in Apple's
  /// order. An empty array means nothing matched.
  public func search(
    term: String, limit: Int = ITunesClient.defaultLimit,
    country: String = ITunesClient.defaultCountry
  ) async throws(SearchError) -> [SearchResult] {
    try ITunesClient.validate(term: term, limit: limit, country: country)
    let url = try searchURL(term: term, limit: limit, country: country)
    let podcasts = try await podcasts(at: url)
    return Array(podcasts.prefix(limit))
  }

  /// The podcast with iTunes id `id`; throws `podcastNotFound` when Apple knows no such show.
  public func lookup(id: Int) async throws(SearchError) -> SearchResult {
    let url = try lookupURL(id: id)
    let podcasts = try await podcasts(at: url)
    guard let podcast = podcasts.first(where: { $0.iTunesID == id }) ?? podcasts.first else {
      throw .podcastNotFound(id: id)
    }
    return podcast
  }

  /// The RSS feed URL of the podcast with iTunes id `id`, for `itunes:ID` and Apple links.
  public func feedURL(forPodcastID id: Int) async throws(SearchError) -> String {
    let podcast = try await lookup(id: id)
    guard let feedURL = podcast.feedURL else {
      throw .podcastHasNoFeed(id: id, title: podcast.title)
    }
    return feedURL
  }

  package func searchURL(term: String, limit: Int, country: String) throws(SearchError) -> String {
    let query = [
      ("term", term.trimmingCharacters(in: .whitespacesAndNewlines)),
      ("media", "podcast"), ("entity", "podcast"),
      ("limit", String(limit)), ("country", country.uppercased()),
    ]
    return try endpoint("search") + "?" + QueryString.encode(query)
  }

  package func lookupURL(id: Int) throws(SearchError) -> String {
    try endpoint("lookup") + "?" + QueryString.encode([("id", String(id))])
  }

  private func endpoint(_ name: String) throws(SearchError) -> String {
    let lowered = baseURL.lowercased()
    guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"),
      URLComponents(string: baseURL)?.host?.isEmpty == false
    else { throw .invalidBaseURL(.apple, baseURL) }
    return baseURL + "/" + name
  }

  private func podcasts(at url: String) async throws(SearchError) -> [SearchResult] {
    let response: HTTPResponse
    do {
      response = try await fetch(url)
    } catch let error as TransferError {
      throw ITunesClient.searchError(for: error)
    } catch {
      throw .unavailable(.apple, .network(url: url, reason: String(describing: error)))
    }
    do {
      return try ITunesResponse.decode(response.body).podcasts
    } catch {
      throw .unreadableResponse(.apple, url: url, reason: ITunesClient.phrase(for: error))
    }
  }

  /// Apple signals rate limiting with 403 as well as 429.
  private static func searchError(for error: TransferError) -> SearchError {
    if case .httpStatus(let url, let status, let retryAfter) = error, status == 403 || status == 429
    {
      return .rateLimited(.apple, url: url, status: status, retryAfter: retryAfter)
    }
    return .unavailable(.apple, error)
  }

  private static func phrase(for reason: ITunesResponse.Unreadable) -> String {
    switch reason {
    case .empty: return "an empty body"
    case .htmlPage: return "an HTML page instead of JSON"
    case .notJSON(let detail): return detail
    case .noResultsArray: return "JSON without a results list"
    }
  }

  private static func isCountryCode(_ text: String) -> Bool {
    text.count == 2 && text.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
  }
}
