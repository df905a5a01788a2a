import Basics
import Foundation
import Transfer

/// Why a search, a directory or a lookup failed. Each case reads as the one line a user sees,
/// naming the directory; none ever holds a secret or an `Authorization` value.
public enum SearchError: SentenceError, Equatable {
  case emptyTerm
  case limitOutOfRange(Int)
  case invalidCountry(String)
  case unknownDirectory(String)
  /// Podcast Index was named, but there is no key and secret to sign its requests with.
  case podcastIndexKeyMissing
  case invalidBaseURL(Directory, String)
  /// 429 (and Apple's 403): the directory asks to be asked less often.
  case rateLimited(Directory, url: String, status: Int, retryAfter: Int?)
  /// 5xx, refused connections, a stalled transfer: the directory could not answer.
  case unavailable(Directory, TransferError)
  /// No answer within the time each directory is given.
  case timedOut(Directory, seconds: Double)
  /// Podcast Index turned the key, the secret or the signature's date down (401).
  case keyRefused(url: String, status: Int)
  /// The directory answered, but with an error of its own (`"status": "false"`, fyyd's
  /// `errors`, a 4xx); `reason` is the directory's own words, if any.
  case refused(Directory, url: String, reason: String)
  /// The body was not the JSON the directory sends (an HTML page, cut-off JSON, ...).
  case unreadableResponse(Directory, url: String, reason: String)
  case podcastNotFound(id: Int)
  case podcastHasNoFeed(id: Int, title: String?)
  /// `podcastindex:ID`, `guid:GUID` or `fyyd:ID` that the directory does not know.
  case notListed(DirectoryReference)
  case listedWithoutFeed(DirectoryReference, title: String?)
  /// `podcastindex:abc`, `guid:`, `fyyd:-1`: the prefix of a reference with no id after it.
  case invalidReference(String)

  public var description: String {
    switch self {
    case .emptyTerm:
      return "the search term is empty: give at least one word to search for"
    case .limitOutOfRange(let limit):
      return "a limit of \(limit) results is out of range: the iTunes API returns 1 to "
        + "\(ITunesClient.limitRange.upperBound) results"
    case .invalidCountry(let country):
      return "'\(country)' is not a two-letter country code (like US, GB or DE)"
    case .unknownDirectory(let name):
      return "'\(name)' is not a directory: choose from "
        + Directory.allCases.map(\.rawValue).joined(separator: ", ") + ", or all"
    case .podcastIndexKeyMissing:
      return "Podcast Index needs your own API key and secret; they are free at "
        + PodcastIndexCredentials.signUpURL
    case .invalidBaseURL(let directory, let url):
      return "\(directory.apiName) base URL '\(url)' is not an http or https URL"
    case .rateLimited(let directory, let url, let status, let retryAfter):
      let wait = retryAfter.map { "try again in \($0) s" } ?? "try again in a minute"
      return "\(directory.apiName) is rate-limiting requests (HTTP \(status) from \(url)); \(wait)"
    case .unavailable(let directory, let transferError):
      return "\(directory.apiName) did not answer: \(transferError)"
    case .timedOut(let directory, let seconds):
      return "\(directory.apiName) did not answer within \(Self.seconds(seconds))"
    case .keyRefused(let url, let status):
      return "Podcast Index refused the API key (HTTP \(status) from \(url)): check the key and "
        + "secret, and this computer's clock (a signed request is good for 5 minutes)"
    case .refused(let directory, let url, let reason):
      return "\(directory.apiName) refused the request (\(reason)): \(url)"
    case .unreadableResponse(let directory, let url, let reason):
      return "\(directory.apiName) sent an unreadable answer (\(reason)): \(url)"
    case .podcastNotFound(let id):
      return "no podcast has the iTunes id \(id)"
    case .podcastHasNoFeed(let id, let title):
      let name = title.map { " (\"\($0)\")" } ?? ""
      return
        "the podcast with iTunes id \(id)\(name) has no public feed URL, so it cannot be downloaded"
    case .notListed(let reference):
      return "no podcast has \(reference.phrase)"
    case .listedWithoutFeed(let reference, let title):
      let name = title.map { " (\"\($0)\")" } ?? ""
      return
        "the podcast with \(reference.phrase)\(name) has no feed URL in \(reference.directory.name)"
    case .invalidReference(let text):
      return "\(text): give the id after the colon, as in podcastindex:920666, fyyd:85 or "
        + "guid:917393e3-1b1e-5cef-ace4-edaa54e1f810"
    }
  }

  /// The directory a failure belongs to, when it belongs to one.
  public var directory: Directory? {
    switch self {
    case .invalidBaseURL(let directory, _), .rateLimited(let directory, _, _, _),
      .unavailable(let directory, _), .timedOut(let directory, _),
      .refused(let directory, _, _), .unreadableResponse(let directory, _, _):
      return directory
    case .keyRefused, .podcastIndexKeyMissing: return .podcastindex
    case .podcastNotFound, .podcastHasNoFeed: return .apple
    case .notListed(let reference), .listedWithoutFeed(let reference, _):
      return reference.directory
    case .emptyTerm, .limitOutOfRange, .invalidCountry, .unknownDirectory, .invalidReference:
      return nil
    }
  }

  private static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }
}
