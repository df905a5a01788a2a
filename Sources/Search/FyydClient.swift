import Basics
import Foundation
import Transfer

/// Talks to fyyd (`https://api.fyyd.de/0.2`), the open directory from Germany that GNOME
/// Podcasts and AntennaPod ask: searches by term and looks shows up by fyyd id. No key.
///
/// Its answers are `{"status": 1, "msg": "ok", "meta": …, "data": …}`, and their fields change
/// type between answers: `episode_count` is `"921"` in some and `921` in others, `categories`
/// an array or a single number, `lastpub` ISO 8601 with an offset or `2017-04-13 02:03:27`.
public struct FyydClient: DirectoryClient {
  public static let defaultBaseURL = "https://api.fyyd.de"

  public let baseURL: String
  public var directory: Directory { .fyyd }
  private let fetch: DirectoryFetch

  public init(baseURL: String = FyydClient.defaultBaseURL, fetch: @escaping DirectoryFetch) {
    self.baseURL = baseURL
    self.fetch = fetch
  }

  public func search(term: String, limit: Int, country: String) async throws(SearchError)
    -> [SearchResult]
  {
    let trimmed = term.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { throw .emptyTerm }
    let count = max(limit, 1)
    let url = try endpoint("/search/podcast", [("term", trimmed), ("count", String(count))])
    guard let answer = try await data(at: url) else { return [] }
    guard let podcasts = answer.array else {
      throw .unreadableResponse(directory, url: url, reason: "JSON without a list of podcasts")
    }
    return Array(podcasts.compactMap(Self.result).prefix(count))
  }

  /// The show `fyyd:ID` names.
  public func podcast(id: Int) async throws(SearchError) -> SearchResult {
    let reference = DirectoryReference.fyydPodcast(id)
    let url = try endpoint("/podcast", [("podcast_id", String(id))])
    guard let podcast = try await data(at: url, missing: reference).flatMap(Self.result) else {
      throw .notListed(reference)
    }
    return podcast
  }

  /// The feed URL of the show `fyyd:ID` names.
  public func feedURL(forPodcastID id: Int) async throws(SearchError) -> String {
    let podcast = try await podcast(id: id)
    guard let feedURL = podcast.feedURL else {
      throw .listedWithoutFeed(.fyydPodcast(id), title: podcast.title)
    }
    return feedURL
  }

  private func endpoint(_ path: String, _ query: [(name: String, value: String)])
    throws(SearchError) -> String
  {
    try DirectoryExchange.url(
      base: baseURL, path: "/0.2" + path, query: query, directory: directory)
  }

  /// The answer's `data`; nil when there is none. A 404 for a lookup means fyyd has no such
  /// show; other refusals come as `{"errors": {"message": …, "http_code": …}}`.
  private func data(at url: String, missing reference: DirectoryReference? = nil)
    async throws(SearchError) -> LooseJSON?
  {
    let response = try await DirectoryExchange.get(url, from: directory, fetch: fetch)
    if response.status == 404, let reference { throw .notListed(reference) }
    guard response.status < 300 else {
      let errors = (try? LooseJSON.decode(response.body))?["errors"]
      throw DirectoryExchange.refusal(
        response, url: url, from: directory, message: errors?["message"]?.text)
    }
    let json = try DirectoryExchange.json(response, url: url, from: directory)
    guard json.isObject else {
      throw .unreadableResponse(directory, url: url, reason: "JSON that is not an object")
    }
    if json["status"]?.integer == 0 {
      if let reference { throw .notListed(reference) }
      throw .refused(
        directory, url: url,
        reason: json["msg"]?.text ?? json["errors"]?["message"]?.text
          ?? "\"status\": 0")
    }
    switch json["data"] {
    case .none, .null?: return nil
    case .array(let elements)? where elements.isEmpty && reference != nil: return nil
    case let data?: return data
    }
  }

  /// One podcast of an answer; nil for anything without an id.
  static func result(_ podcast: LooseJSON) -> SearchResult? {
    guard podcast.isObject, let id = podcast["id"]?.integer, id > 0 else { return nil }
    return SearchResult(
      title: podcast["title"]?.text,
      author: podcast["author"]?.text,
      feedURL: podcast["xmlURL"]?.webURL,
      episodeCount: podcast["episode_count"]?.integer ?? podcast["stats"]?["episodecount"]?.integer,
      artworkURL: podcast["imgURL"]?.webURL ?? podcast["layoutImageURL"]?.webURL,
      lastPublished: podcast["lastpub"]?.text.flatMap(date),
      directories: [.fyyd],
      fyydID: id)
  }

  /// `lastpub` as fyyd writes it now (`2018-09-28T15:24:13+02:00`) or wrote it before
  /// (`2017-04-13 02:03:27`, German time, where fyyd runs).
  static func date(_ text: String) -> Date? {
    if let date = try? Date(text, strategy: .iso8601) { return date }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "Europe/Berlin") ?? TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.date(from: text)
  }
}
