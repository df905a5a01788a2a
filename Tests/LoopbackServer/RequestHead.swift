import Foundation

/// The request line and header fields of one HTTP/1.x request.
struct RequestHead {
  let method: String
  let target: String
  let version: String
  /// Lowercased names; repeated fields joined with ", ".
  let headers: [String: String]

  var path: String { String(target.prefix { $0 != "?" }) }

  /// Request bodies are rare here (no client of ours uploads): a small cap keeps memory flat.
  static let maximumBodySize = 16 << 20

  /// Checked by `parse`: absent, or a whole number up to `maximumBodySize`.
  var contentLength: Int { headers["content-length"].flatMap { Int($0) } ?? 0 }

  /// HTTP/1.1 keeps the connection unless told to close; HTTP/1.0 only when asked to keep it.
  var wantsKeepAlive: Bool {
    let connection = headers["connection"]?.lowercased() ?? ""
    if version == "HTTP/1.0" { return connection.contains("keep-alive") }
    return !connection.contains("close")
  }

  /// Parses the bytes before the blank line; nil if they are not an HTTP/1.x request head.
  static func parse(_ bytes: ArraySlice<UInt8>) -> RequestHead? {
    let text = String(decoding: bytes, as: UTF8.self)
    var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
    guard let requestLine = lines.popFirst() else { return nil }
    let parts = requestLine.split(separator: " ")
    guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }

    var headers: [String: String] = [:]
    for line in lines where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":") else { return nil }
      let name = line[..<colon].lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }
    if let length = headers["content-length"] {
      guard let count = Int(length), (0...maximumBodySize).contains(count) else { return nil }
    }
    return RequestHead(
      method: String(parts[0]), target: String(parts[1]), version: String(parts[2]),
      headers: headers)
  }
}
