import Foundation

/// What the server answers on one path: a body and its metadata, plus any misbehaviour asked for.
///
/// Build one from a constructor and chain modifiers:
/// ```
/// server.set("/ep.mp3", .file(path).withETag("\"v1\"").dropping(after: 50_000, times: 1))
/// server.set("/feed", .sequence([.status(500), .text("ok")]))
/// ```
public struct Route: Sendable {
  public enum Body: Sendable {
    case data(Data)
    /// Read at request time, so a test may change the file between requests.
    case file(String)
  }

  public var body: Body
  public var status: Int
  /// nil: guessed from a file's extension, else application/octet-stream.
  public var contentType: String?
  public var headers: [(name: String, value: String)] = []
  public var etag: String?
  public var lastModified: Date?
  public var faults = Faults()
  /// When set, a request without exactly this `Authorization` header gets 401.
  public var requiredAuthorization: String?
  /// When not empty, the n-th request to the path gets `steps[n]` (the last one repeats);
  /// modifiers on the sequence itself are not used.
  public var steps: [Route] = []
  /// When set, the route that answers is the one this makes of the request, as it arrives:
  /// for a server that checks what it is sent (a signature, a header) the way a real one does.
  public var responder: (@Sendable (RecordedRequest) -> Route)?

  public init(body: Body, status: Int = 200, contentType: String? = nil) {
    self.body = body
    self.status = status
    self.contentType = contentType
  }

  /// The route that answers the request numbered `hit` (0 for the first) on its path.
  func step(forHit hit: Int) -> Route {
    guard let last = steps.last else { return self }
    return hit < steps.count ? steps[hit] : last
  }
}

// MARK: - Constructors

extension Route {
  public static func data(_ data: Data, contentType: String = "application/octet-stream") -> Route {
    Route(body: .data(data), contentType: contentType)
  }

  public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8")
    -> Route
  {
    Route(body: .data(Data(text.utf8)), contentType: contentType)
  }

  /// An HTML page with 200: what captive portals and broken CDNs send instead of audio.
  public static func html(_ html: String) -> Route {
    .text(html, contentType: "text/html; charset=utf-8")
  }

  /// A file from disk; `*.xml` and `*.rss` get `{{base}}` replaced by the server's base URL.
  public static func file(_ path: String, contentType: String? = nil) -> Route {
    Route(body: .file(path), contentType: contentType)
  }

  /// A bare status with a short text body, e.g. `.status(404)` or `.status(500)`.
  public static func status(_ code: Int, body: String = "") -> Route {
    Route(body: .data(Data(body.utf8)), status: code, contentType: "text/plain; charset=utf-8")
  }

  /// A redirect to any location at all, including `file:///etc/passwd`, `ftp://...` or itself.
  public static func redirect(to location: String, status: Int = 302) -> Route {
    Route.status(status, body: "Moved to \(location)\n").withHeader("Location", location)
  }

  /// 429 Too Many Requests with `Retry-After: seconds`.
  public static func tooManyRequests(retryAfter seconds: Int) -> Route {
    Route.status(429, body: "Slow down\n").withHeader("Retry-After", String(seconds))
  }

  /// The answer `responder` makes of each request when it arrives (called on the
  /// connection's thread; it may block, delaying that answer only).
  public static func responding(_ responder: @escaping @Sendable (RecordedRequest) -> Route)
    -> Route
  {
    var route = Route.status(500, body: "no answer\n")
    route.responder = responder
    return route
  }

  /// Different answers on successive requests, e.g. `.sequence([.status(500), .file(path)])`.
  public static func sequence(_ steps: [Route]) -> Route {
    var route = Route.status(500, body: "empty sequence\n")
    route.steps = steps
    return route
  }
}

// MARK: - Metadata modifiers

extension Route {
  public func withStatus(_ code: Int) -> Route {
    changed { $0.status = code }
  }

  public func withContentType(_ type: String) -> Route {
    changed { $0.contentType = type }
  }

  public func withHeader(_ name: String, _ value: String) -> Route {
    changed { $0.headers.append((name, value)) }
  }

  /// Answers a matching If-None-Match with 304 and checks If-Range against it. Pass it quoted.
  public func withETag(_ etag: String) -> Route {
    changed { $0.etag = etag }
  }

  /// Answers a not-older If-Modified-Since with 304 and checks If-Range against it.
  public func withLastModified(_ date: Date) -> Route {
    changed { $0.lastModified = date }
  }

  /// Answers 401 with `WWW-Authenticate: Basic` unless the request carries these credentials.
  public func requiringBasicAuth(user: String, password: String) -> Route {
    let token = Data("\(user):\(password)".utf8).base64EncodedString()
    return changed { $0.requiredAuthorization = "Basic " + token }
  }

  func changed(_ change: (inout Route) -> Void) -> Route {
    var copy = self
    change(&copy)
    return copy
  }
}

// MARK: - Fault modifiers

extension Route {
  /// Answers 200 with the whole body even when a Range was asked for.
  public func ignoringRange() -> Route {
    changed { $0.faults.ignoresRange = true }
  }

  /// Answers a Range request with 206 even when If-Range names another version (some CDNs).
  public func ignoringIfRange() -> Route {
    changed { $0.faults.ignoresIfRange = true }
  }

  /// Closes the connection after `bytes` body bytes, on the first `times` requests to the path.
  public func dropping(after bytes: Int, times: Int = .max) -> Route {
    changed { $0.faults.drop = Faults.Cut(afterBytes: bytes, times: times) }
  }

  /// Stops sending for `seconds` after `bytes` body bytes (nil: until the server stops),
  /// on the first `times` requests to the path.
  public func stalling(after bytes: Int, seconds: Double?, times: Int = .max) -> Route {
    changed { $0.faults.stall = Faults.Stall(afterBytes: bytes, seconds: seconds, times: times) }
  }

  /// Sends the body at about `bytesPerSecond`.
  public func trickling(bytesPerSecond: Int) -> Route {
    changed { $0.faults.bytesPerSecond = max(1, bytesPerSecond) }
  }

  /// Announces a Content-Length `delta` bytes off the truth (positive: more than is sent).
  public func lyingAboutLength(by delta: Int) -> Route {
    changed { $0.faults.lengthLie = delta }
  }

  /// Sends the body gzip-compressed with `Content-Encoding: gzip`.
  public func gzipped() -> Route {
    changed { $0.faults.encoding = .gzip }
  }

  /// Sends gzip-compressed bytes but says nothing about it: no Content-Encoding header.
  public func gzippedWithoutContentEncoding() -> Route {
    changed { $0.faults.encoding = .gzipUndeclared }
  }
}
