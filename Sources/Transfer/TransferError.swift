import Basics
import Foundation

/// Why a transfer failed. Each case names the URL, so a message never loses its subject.
public enum TransferError: SentenceError, Equatable {
  case invalidURL(String)
  case unsupportedScheme(url: String)
  case redirectRefused(url: String, location: String)
  case tooManyRedirects(url: String, limit: Int)
  case httpStatus(url: String, status: Int, retryAfter: Int?)
  case timedOut(url: String, seconds: Int)
  case network(url: String, reason: String)
  /// The host name has no address: a domain that expired (dead podcasts keep their
  /// subscribers), a typo, or no network at all. Not retried: curl and wget do not either, and
  /// three tries cost every such feed 3 s of each sync.
  case unknownHost(url: String, reason: String)
  case tooLarge(url: String, limit: Int64)
  case cancelled(url: String)
  case tls(url: String, reason: String)
  case setup(url: String, reason: String)

  public var url: String {
    switch self {
    case .invalidURL(let url), .unsupportedScheme(let url), .redirectRefused(let url, _),
      .tooManyRedirects(let url, _), .httpStatus(let url, _, _), .timedOut(let url, _),
      .network(let url, _), .unknownHost(let url, _), .tooLarge(let url, _), .cancelled(let url),
      .tls(let url, _),
      .setup(let url, _):
      return url
    }
  }

  /// Worth trying again later: the server or the network may recover.
  public var isTransient: Bool {
    switch self {
    case .httpStatus(_, let status, _): return status == 429 || status == 408 || status >= 500
    case .timedOut, .network: return true
    default: return false
    }
  }

  public var description: String {
    switch self {
    case .invalidURL(let url): return "\(url): not a valid URL"
    case .unsupportedScheme(let url):
      // The one way a `file:` URL gets this far: a feed read from disk named its episode
      // with a relative link, which has no web address to fetch it from.
      if url.utf8.prefix(5).map(\.asciiLowercased).elementsEqual("file:".utf8) {
        return "\(url): a relative link in a feed read from a local file has no web address;"
          + " use the feed's URL instead"
      }
      return "\(url): only http and https URLs are allowed"
    case .redirectRefused(let url, let location):
      return "\(url): refused redirect to \(location) (only http and https are allowed)"
    case .tooManyRedirects(let url, let limit):
      return "\(url): too many redirects (more than \(limit))"
    case .httpStatus(let url, let status, let retryAfter):
      let reason = HTTPStatus.reason(status)
      var text = "\(url): HTTP \(status)" + (reason.isEmpty ? "" : " \(reason)")
      if let retryAfter { text += " (server asks to retry after \(retryAfter) s)" }
      if status == 401 {
        text += ": credentials are missing or were refused (a user name and password, or ~/.netrc)"
      } else if status == 403 {
        text += ": access refused (credentials missing or refused, or a signed link that expired)"
      }
      return text
    case .timedOut(let url, let seconds):
      return "\(url): timed out (no data for \(seconds) s)"
    case .network(let url, let reason), .unknownHost(let url, let reason):
      return "\(url): \(reason)"
    case .tooLarge(let url, let limit): return "\(url): response larger than \(limit) bytes"
    case .cancelled(let url): return "\(url): cancelled"
    case .tls(let url, let reason): return "\(url): the secure connection failed: \(reason)"
    case .setup(let url, let reason): return "\(url): cannot start the transfer: \(reason)"
    }
  }
}

package enum HTTPStatus {
  package static func reason(_ status: Int) -> String {
    switch status {
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 408: return "Request Timeout"
    case 410: return "Gone"
    case 416: return "Range Not Satisfiable"
    case 429: return "Too Many Requests"
    case 500: return "Internal Server Error"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    default: return ""
    }
  }
}
