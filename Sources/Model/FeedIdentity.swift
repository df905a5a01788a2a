import Basics
import Foundation

/// When two feed URLs name the same feed for matching a sync server's list to the library's:
/// a server keeps the URL as a phone sent it, the library the one it subscribed (`http` that
/// became `https`, a host in capitals, a trailing slash, a login in the URL). The query stays:
/// publishers serve different feeds under one path (`?format=mp3`).
public enum FeedIdentity {
  /// `HTTP://User:pw@Feeds.Example.org:80/show/?a=1#x` -> `feeds.example.org/show?a=1`.
  public static func key(_ url: String) -> String {
    var rest = Substring(url.trimmingWhitespace)
    if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
    var port: Substring?
    if let scheme = rest.range(of: "://") {
      let name = rest[..<scheme.lowerBound].lowercased()
      guard name == "http" || name == "https" else { return String(rest) }
      rest = rest[scheme.upperBound...]
      let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
      var authority = rest[..<authorityEnd]
      if let at = authority.lastIndex(of: "@") {
        authority = authority[authority.index(after: at)...]
      }
      if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
        port = authority[authority.index(after: colon)...]
        authority = authority[..<colon]
      }
      let defaultPort = port == nil || port == "80" || port == "443" || port == ""
      let host = authority.lowercased() + (defaultPort ? "" : ":" + (port ?? ""))
      rest = Substring(host) + rest[authorityEnd...]
    }
    let queryStart = rest.firstIndex(of: "?") ?? rest.endIndex
    var path = rest[..<queryStart]
    while path.hasSuffix("/") { path = path.dropLast() }
    return String(path + rest[queryStart...])
  }
}
