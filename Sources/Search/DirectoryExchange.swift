import Basics
import Foundation
import Transfer

/// What the directory clients share: their base URL checked and joined to a path, and the
/// statuses every directory means the same by.
package enum DirectoryExchange {
  /// `base` without trailing slashes, followed by `path` and the encoded `query`.
  package static func url(
    base: String, path: String, query: [(name: String, value: String)], directory: Directory
  ) throws(SearchError) -> String {
    var trimmed = base.trimmingCharacters(in: .whitespacesAndNewlines)
    while trimmed.hasSuffix("/") { trimmed.removeLast() }
    let lowered = trimmed.lowercased()
    guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"),
      URLComponents(string: trimmed)?.host?.isEmpty == false
    else { throw .invalidBaseURL(directory, base) }
    return trimmed + path + (query.isEmpty ? "" : "?" + QueryString.encode(query))
  }

  /// GETs `url`. No answer, a 429 (with its `Retry-After`) and a 5xx throw; every other
  /// answer is returned for the client to read, refusals too.
  package static func get(
    _ url: String, headers: [(name: String, value: String)] = [], from directory: Directory,
    fetch: DirectoryFetch
  ) async throws(SearchError) -> HTTPResponse {
    let response: HTTPResponse
    do {
      response = try await fetch(url, headers)
    } catch let error as TransferError {
      if case .httpStatus(_, 429, let retryAfter) = error {
        throw .rateLimited(directory, url: url, status: 429, retryAfter: retryAfter)
      }
      throw .unavailable(directory, error)
    } catch {
      throw .unavailable(directory, .network(url: url, reason: String(describing: error)))
    }
    switch response.status {
    case 429:
      throw .rateLimited(
        directory, url: url, status: 429,
        retryAfter: ResponseHead.retryAfter(response.headers["retry-after"]))
    case 500...:
      throw .unavailable(
        directory, .httpStatus(url: url, status: response.status, retryAfter: nil))
    default:
      return response
    }
  }

  /// The body as JSON, or the reason it is not.
  package static func json(_ response: HTTPResponse, url: String, from directory: Directory)
    throws(SearchError) -> LooseJSON
  {
    do {
      return try LooseJSON.decode(response.body)
    } catch {
      throw .unreadableResponse(directory, url: url, reason: error.phrase)
    }
  }

  /// A refusal (4xx) in the directory's own words when it gave some, else the status.
  package static func refusal(
    _ response: HTTPResponse, url: String, from directory: Directory, message: String?
  ) -> SearchError {
    let status = "HTTP \(response.status)"
    return .refused(directory, url: url, reason: message.map { "\(status): \($0)" } ?? status)
  }
}
