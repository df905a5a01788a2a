import Basics
import Foundation
import Transfer

/// Talks to gpodder.net's directory (`/search.json?q=`): the shows its users subscribe to.
/// The answer is a bare array of `{url, title, author, description, subscribers, logo_url,
/// website, mygpo_link}`, with no episode counts or dates; `title` is the feed URL when the
/// service knows no title. The real service often answers 500, which is reported like any
/// other failure.
public struct GpodderClient: DirectoryClient {
  public static let defaultBaseURL = "https://gpodder.net"

  public let baseURL: String
  public var directory: Directory { .gpodder }
  private let fetch: DirectoryFetch

  public init(baseURL: String = GpodderClient.defaultBaseURL, fetch: @escaping DirectoryFetch) {
    self.baseURL = baseURL
    self.fetch = fetch
  }

  public func search(term: String, limit: Int, country: String) async throws(SearchError)
    -> [SearchResult]
  {
    let trimmed = term.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { throw .emptyTerm }
    let url = try DirectoryExchange.url(
      base: baseURL, path: "/search.json", query: [("q", trimmed)], directory: directory)
    let response = try await DirectoryExchange.get(url, from: directory, fetch: fetch)
    guard response.status < 300 else {
      throw DirectoryExchange.refusal(response, url: url, from: directory, message: nil)
    }
    guard let podcasts = try DirectoryExchange.json(response, url: url, from: directory).array
    else {
      throw .unreadableResponse(directory, url: url, reason: "JSON without a list of podcasts")
    }
    return Array(podcasts.compactMap(Self.result).prefix(max(limit, 1)))
  }

  /// One podcast of the answer; nil for anything without a feed URL, which is all
  /// gpodder.net identifies a podcast by.
  static func result(_ podcast: LooseJSON) -> SearchResult? {
    guard let feedURL = podcast["url"]?.webURL else { return nil }
    let title = podcast["title"]?.text
    return SearchResult(
      title: title == feedURL ? nil : title,
      author: podcast["author"]?.text,
      feedURL: feedURL,
      artworkURL: podcast["logo_url"]?.webURL ?? podcast["scaled_logo_url"]?.webURL,
      directories: [.gpodder])
  }
}
