import Basics
import Foundation
import Privacy

/// How patient to be with a server, and how much to accept from it.
public struct TransferOptions: Sendable, Equatable {
  /// Seconds allowed to establish a connection.
  public var connectTimeout: Int = 20
  /// Seconds without a single byte arriving before the transfer is abandoned, so a dead
  /// server can never hang the tool.
  public var stallTimeout: Int = 30
  /// Redirects followed at most.
  public var maxRedirects: Int = 10
  /// Shared bandwidth budget for every transfer made with these options; nil is unlimited.
  public var rateLimit: RateLimit? = nil

  public init(connectTimeout: Int = 20, stallTimeout: Int = 30, maxRedirects: Int = 10) {
    self.connectTimeout = connectTimeout
    self.stallTimeout = stallTimeout
    self.maxRedirects = maxRedirects
  }
}

/// The HTTP methods the tool uses: GET for feeds and media, POST and PUT for a sync server's API.
package enum HTTPMethod: String, Sendable {
  case get = "GET"
  case post = "POST"
  case put = "PUT"
}

/// One request as the transfer layer performs it: a GET unless it says otherwise.
package struct TransferRequest: Sendable {
  package var url: String
  package var options: TransferOptions
  package var method = HTTPMethod.get
  /// Sent as the request body (with POST and PUT), its length known up front.
  package var body: Data? = nil
  /// More header fields, sent as given (`Content-Type`, `Cookie`). A field whose name or value
  /// holds a line break is left out, so it cannot add lines of its own to the request.
  package var headers: [(name: String, value: String)] = []
  /// Sent as If-None-Match / If-Modified-Since (a conditional GET).
  package var validators: Validators? = nil
  /// Ask for the body from this offset on (`Range: bytes=N-`).
  package var rangeStart: Int64? = nil
  /// Sent as `If-Range` with `rangeStart`: a changed file comes back whole instead of a wrong tail.
  package var ifRange: String? = nil
  /// Compressed transfer for text (feeds, API calls); off for media so offsets stay byte offsets.
  package var acceptsCompression = true
  /// Larger curl buffers for bulk downloads.
  package var bulk = false
  /// A user name and password for this URL's host only (libcurl never sends them on to
  /// another host after a redirect).
  package var credentials: FeedCredentials? = nil
  /// The schemes allowed, for the request and its redirects (libcurl's list syntax).
  package var protocols = "http,https"

  package init(
    url: String, options: TransferOptions, validators: Validators? = nil,
    rangeStart: Int64? = nil, ifRange: String? = nil, acceptsCompression: Bool = true,
    bulk: Bool = false, credentials: FeedCredentials? = nil, protocols: String = "http,https"
  ) {
    self.url = url
    self.options = options
    self.validators = validators
    self.rangeStart = rangeStart
    self.ifRange = ifRange
    self.acceptsCompression = acceptsCompression
    self.bulk = bulk
    self.credentials = credentials
    self.protocols = protocols
  }
}

extension TransferRequest {
  /// Every option a plain GET gives its easy handle but its URL, header lines and pointers
  /// to its own transfer. Two requests with the same one leave a handle set up alike, so the
  /// second may take the first's handle as it is (libcurl keeps options from one transfer to
  /// the next) and set only those: see `TransferEngine.takeHandle`.
  package struct HandleProfile: Hashable, Sendable {
    var protocols: String
    var connectTimeout: Int
    var stallTimeout: Int
    var maxRedirects: Int
    var acceptsCompression: Bool
    /// `CURLOPT_PIPEWAIT`, set for https only.
    var waitsForPipe: Bool
  }

  /// The request's profile; nil for one that sets anything more (another method, a body, a
  /// login, a range, a buffer size), whose handle is reset before it is used again.
  package var handleProfile: HandleProfile? {
    guard method == .get, body == nil, credentials == nil, (rangeStart ?? 0) <= 0,
      !setsBufferSize
    else { return nil }
    return HandleProfile(
      protocols: protocols, connectTimeout: options.connectTimeout,
      stallTimeout: options.stallTimeout, maxRedirects: options.maxRedirects,
      acceptsCompression: acceptsCompression, waitsForPipe: waitsForPipe)
  }

  /// Whether the transfer sets its own receive buffer size (`CURLOPT_BUFFERSIZE`: a bulk
  /// download's larger one, a rate limit's smaller one). libcurl refuses that option on a
  /// handle that has had a buffer (libcurl 7.88: "a bad argument"), which `curl_easy_reset`
  /// does not free: such a request needs a new handle, and its handle (with a buffer of
  /// its own size) is not kept for others.
  package var setsBufferSize: Bool {
    bulk || options.rateLimit != nil
  }

  /// Whether the transfer waits for a connection its host is setting up (`CURLOPT_PIPEWAIT`).
  var waitsForPipe: Bool {
    // Bytes: lowercasing a `prefix` made a string for every request, on the transfer thread.
    url.utf8.count > 6 && zip(url.utf8, "https:".utf8).allSatisfy { $0.asciiLowercased == $1 }
  }
}

/// The status line and headers of the final response (after redirects).
package struct ResponseHead: Sendable {
  package var status: Int
  package var url: String
  /// Lower-cased names; the last value wins.
  package var headers: [String: String]
  package var redirects: [(status: Int, url: String)]

  /// Seconds the server asks us to wait (`Retry-After` as seconds or as an HTTP date).
  package var retryAfter: Int? { Self.retryAfter(headers["retry-after"]) }

  /// A `Retry-After` value as seconds, or as an HTTP date turned into the seconds until then.
  package static func retryAfter(_ value: String?) -> Int? {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
      return nil
    }
    if let seconds = Int(value) { return max(0, seconds) }
    return HTTPDate.parse(value).map { max(0, Int($0.timeIntervalSinceNow.rounded(.up))) }
  }

  package var contentLength: Int64? { headers["content-length"].flatMap { Int64($0) } }
}
