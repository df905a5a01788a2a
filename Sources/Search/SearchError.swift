import Basics
import Foundation
import Transfer

/// Why a search or an Apple Podcasts lookup failed. Each case reads as the one line a user sees.
public enum SearchError: SentenceError, Equatable {
  case emptyTerm
  case limitOutOfRange(Int)
  case invalidCountry(String)
  case invalidBaseURL(String)
  /// Apple answers 403 or 429 when a client asks too often.
  case rateLimited(url: String, status: Int, retryAfter: Int?)
  /// 5xx, timeouts, refused connections: the service could not answer.
  case unavailable(TransferError)
  /// The body was not the JSON the iTunes API sends (an HTML page, cut-off JSON, ...).
  case unreadableResponse(url: String, reason: String)
  case podcastNotFound(id: Int)
  case podcastHasNoFeed(id: Int, title: String?)

  public var description: String {
    switch self {
    case .emptyTerm:
      return "the search term is empty: give at least one word to search for"
    case .limitOutOfRange(let limit):
      return "a limit of \(limit) results is out of range: the iTunes API returns 1 to "
        + "\(ITunesClient.limitRange.upperBound) results"
    case .invalidCountry(let country):
      return "'\(country)' is not a two-letter country code (like US, GB or DE)"
    case .invalidBaseURL(let url):
      return "iTunes API base URL '\(url)' is not an http or https URL"
    case .rateLimited(let url, let status, let retryAfter):
      let wait = retryAfter.map { "try again in \($0) s" } ?? "try again in a minute"
      return "the iTunes API is rate-limiting requests (HTTP \(status) from \(url)); \(wait)"
    case .unavailable(let transferError):
      return "the iTunes API did not answer: \(transferError)"
    case .unreadableResponse(let url, let reason):
      return "the iTunes API sent an unreadable answer (\(reason)): \(url)"
    case .podcastNotFound(let id):
      return "no podcast has the iTunes id \(id)"
    case .podcastHasNoFeed(let id, let title):
      let name = title.map { " (\"\($0)\")" } ?? ""
      return
        "the podcast with iTunes id \(id)\(name) has no public feed URL, so it cannot be downloaded"
    }
  }
}
