import Foundation

/// The head of one response and which slice of the body follows it, decided from the request's
/// conditional and range headers and the route's metadata and faults.
struct ResponsePlan {
  var status: Int
  var headers: [(name: String, value: String)] = []
  /// The slice of the body to send; empty for 304, 416 and HEAD.
  var bodyRange: Range<Int>
  var closesConnection: Bool

  init(request: RequestHead, route: Route, contentType: String, bodySize: Int) {
    let faults = route.faults
    status = route.status
    bodyRange = 0..<bodySize
    closesConnection = !request.wantsKeepAlive || faults.spoilsConnection

    if let required = route.requiredAuthorization, request.headers["authorization"] != required {
      status = 401
      bodyRange = 0..<0
      headers = [
        ("WWW-Authenticate", #"Basic realm="loopback""#), ("Content-Length", "0"),
        ("Connection", closesConnection ? "close" : "keep-alive"),
      ]
      return
    }

    headers.append(("Content-Type", contentType))
    if faults.encoding == .gzip { headers.append(("Content-Encoding", "gzip")) }
    if let etag = route.etag { headers.append(("ETag", etag)) }
    if let date = route.lastModified { headers.append(("Last-Modified", HTTPDate.format(date))) }
    headers += route.headers

    if status == 200 {
      applyConditionals(request: request, route: route)
    }
    if status == 200 && !faults.ignoresRange {
      headers.append(("Accept-Ranges", "bytes"))
      if faults.ignoresIfRange || Self.ifRangeHolds(request.headers["if-range"], route: route) {
        applyRange(request.headers["range"], size: bodySize)
      }
    }
    if status == 304 {
      // A 304 has no body and no Content-Length: its length would be the full body's.
      headers.removeAll { $0.name == "Content-Type" }
    } else {
      headers.append(("Content-Length", String(bodyRange.count + faults.lengthLie)))
    }
    headers.append(("Connection", closesConnection ? "close" : "keep-alive"))
    if request.method == "HEAD" { bodyRange = 0..<0 }
  }

  private mutating func applyConditionals(request: RequestHead, route: Route) {
    guard request.method == "GET" || request.method == "HEAD" else { return }
    if let tags = request.headers["if-none-match"] {
      // If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2); comparison is weak.
      guard let etag = route.etag else { return }
      let wanted = tags.split(separator: ",").map {
        Self.weakened($0.trimmingCharacters(in: .whitespaces))
      }
      if wanted.contains("*") || wanted.contains(Self.weakened(etag)) { notModified() }
    } else if let since = request.headers["if-modified-since"].flatMap(HTTPDate.parse),
      let modified = route.lastModified, HTTPDate.seconds(modified) <= since
    {
      notModified()
    }
  }

  private mutating func notModified() {
    status = 304
    bodyRange = 0..<0
  }

  private mutating func applyRange(_ header: String?, size: Int) {
    switch ByteRange.resolve(header, size: size) {
    case .whole:
      break
    case .partial(let range):
      status = 206
      bodyRange = range
      headers.append(("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"))
    case .unsatisfiable:
      status = 416
      bodyRange = 0..<0
      headers.append(("Content-Range", "bytes */\(size)"))
    }
  }

  /// If-Range asks for the range only while the resource is unchanged: strong ETag match, or
  /// exactly the Last-Modified date.
  private static func ifRangeHolds(_ value: String?, route: Route) -> Bool {
    guard let value = value?.trimmingCharacters(in: .whitespaces) else { return true }
    if value.hasPrefix("\"") || value.hasPrefix("W/") {
      guard let etag = route.etag, !etag.hasPrefix("W/") else { return false }
      return value == etag
    }
    guard let modified = route.lastModified, let date = HTTPDate.parse(value) else { return false }
    return HTTPDate.seconds(modified) == date
  }

  private static func weakened(_ tag: String) -> String {
    tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
  }

  /// The status line and header fields, ready to send.
  var head: String {
    var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    return text + "\r\n"
  }

  static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 206: "Partial Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 410: "Gone"
    case 416: "Range Not Satisfiable"
    case 429: "Too Many Requests"
    case 500: "Internal Server Error"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    default: "Status \(status)"
    }
  }
}
