import Basics
import Foundation
import Transfer

/// Talks to the Podcast Index API (`https://api.podcastindex.org/api/1.0`): searches by term
/// and looks shows up by feed id, podcast:guid or iTunes id. Every request is signed with the
/// user's own key (`PodcastIndexCredentials`); the `User-Agent` the transfer layer sends names
/// podcast and its version, as the service asks (it turns away library defaults).
public struct PodcastIndexClient: DirectoryClient {
  public static let defaultBaseURL = "https://api.podcastindex.org"
  /// The service returns up to 1000 results a search.
  public static let maximumResults = 1000

  public let baseURL: String
  public var directory: Directory { .podcastindex }
  private let credentials: PodcastIndexCredentials
  private let now: @Sendable () -> Date
  private let fetch: DirectoryFetch

  /// `now` dates the signature (the service accepts it for 5 minutes); replaceable for tests.
  public init(
    baseURL: String = PodcastIndexClient.defaultBaseURL, credentials: PodcastIndexCredentials,
    now: @escaping @Sendable () -> Date = { Date() }, fetch: @escaping DirectoryFetch
  ) {
    self.baseURL = baseURL
    self.credentials = credentials
    self.now = now
    self.fetch = fetch
  }

  public func search(term: String, limit: Int, country: String) async throws(SearchError)
    -> [SearchResult]
  {
    let trimmed = term.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { throw .emptyTerm }
    let count = min(max(limit, 1), Self.maximumResults)
    let url = try endpoint("/search/byterm", [("q", trimmed), ("max", String(count))])
    let answer = try await answer(url)
    // A dead feed (`dead: 1`) is gone from the web: nothing to fetch.
    let feeds = answer["feeds"]?.array ?? []
    return Array(
      feeds.filter { $0["dead"]?.integer != 1 }.compactMap(Self.result).prefix(count))
  }

  /// The show `reference` names (`podcastindex:ID` or `guid:GUID`).
  public func podcast(_ reference: DirectoryReference) async throws(SearchError) -> SearchResult {
    switch reference {
    case .podcastIndexFeed(let id):
      return try await lookup("/podcasts/byfeedid", ("id", String(id)), reference: reference)
    case .podcastGUID(let guid):
      return try await lookup("/podcasts/byguid", ("guid", guid), reference: reference)
    case .fyydPodcast:
      throw .notListed(reference)
    }
  }

  /// The show Apple lists as `id`, when Podcast Index knows it; nil when it does not.
  public func podcast(iTunesID id: Int) async throws(SearchError) -> SearchResult? {
    let url = try endpoint("/podcasts/byitunesid", [("id", String(id))])
    return Self.result(try await answer(url)["feed"] ?? .null)
  }

  /// The feed URL of the show `reference` names.
  public func feedURL(for reference: DirectoryReference) async throws(SearchError) -> String {
    let podcast = try await podcast(reference)
    guard let feedURL = podcast.feedURL else {
      throw .listedWithoutFeed(reference, title: podcast.title)
    }
    return feedURL
  }

  private func lookup(
    _ path: String, _ item: (name: String, value: String), reference: DirectoryReference
  ) async throws(SearchError) -> SearchResult {
    let url = try endpoint(path, [item])
    // A lookup that finds nothing answers 200 with `"feed": []`, an array where a show
    // would be an object.
    guard let podcast = Self.result(try await answer(url)["feed"] ?? .null) else {
      throw .notListed(reference)
    }
    return podcast
  }

  private func endpoint(_ path: String, _ query: [(name: String, value: String)])
    throws(SearchError) -> String
  {
    try DirectoryExchange.url(
      base: baseURL, path: "/api/1.0" + path, query: query, directory: directory)
  }

  /// The signed GET and the checks every endpoint shares: a refused key, the service's own
  /// `"status": "false"` (a string, as is `"true"`), a body that is not JSON.
  private func answer(_ url: String) async throws(SearchError) -> LooseJSON {
    let headers = credentials.headers(at: Int(now().timeIntervalSince1970))
    let response = try await DirectoryExchange.get(
      url, headers: headers, from: directory, fetch: fetch)
    if response.status == 401 || response.status == 403 {
      throw .keyRefused(url: url, status: response.status)
    }
    // The service's own words go into the error, but never a secret a server echoed back.
    func words(_ text: String?) -> String? {
      text.map { credentials.masked($0, headers: headers) }
    }
    guard response.status < 300 else {
      let message = words((try? LooseJSON.decode(response.body))?["description"]?.text)
      throw DirectoryExchange.refusal(response, url: url, from: directory, message: message)
    }
    let json = try DirectoryExchange.json(response, url: url, from: directory)
    guard json.isObject else {
      throw .unreadableResponse(directory, url: url, reason: "JSON that is not an object")
    }
    if let status = json["status"], status == .string("false") || status == .bool(false) {
      throw .refused(
        directory, url: url, reason: words(json["description"]?.text) ?? "\"status\": \"false\"")
    }
    return json
  }

  /// One feed of an answer; nil for anything that is not a feed with an id (such as the
  /// empty array of a lookup that found nothing).
  static func result(_ feed: LooseJSON) -> SearchResult? {
    guard feed.isObject, let id = feed["id"]?.integer, id > 0 else { return nil }
    // Search answers call the newest episode's date `newestItemPubdate`, lookups
    // `newestItemPublishTime`; 0 means none.
    let newest = (feed["newestItemPubdate"]?.integer ?? feed["newestItemPublishTime"]?.integer)
      .flatMap { $0 > 0 ? Date(timeIntervalSince1970: TimeInterval($0)) : nil }
    return SearchResult(
      iTunesID: feed["itunesId"]?.integer.flatMap { $0 > 0 ? $0 : nil },
      title: feed["title"]?.text,
      author: feed["author"]?.text ?? feed["ownerName"]?.text,
      feedURL: feed["url"]?.webURL ?? feed["originalUrl"]?.webURL,
      episodeCount: feed["episodeCount"]?.integer,
      artworkURL: feed["artwork"]?.webURL ?? feed["image"]?.webURL,
      lastPublished: newest,
      directories: [.podcastindex],
      podcastIndexID: id,
      podcastGUID: feed["podcastGuid"]?.text)
  }
}
