import Basics
import Foundation

/// A user name and password for a feed behind HTTP authentication. They travel as the
/// userinfo of the subscription's feed URL (`https://user:pass@host/feed`): libcurl sends them
/// to that host only, never to another one a redirect leads to, and every printed copy of the
/// URL is masked (`SecretMask`).
public struct FeedCredentials: Sendable, Equatable {
  public var user: String
  public var password: String

  public init(user: String, password: String) {
    self.user = user
    self.password = password
  }

  /// `url` with these credentials as its userinfo; nil when it is not an http(s) URL.
  public func applied(to url: String) -> String? {
    guard var components = URLComponents(string: url),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      components.host?.isEmpty == false
    else { return nil }
    components.user = user
    components.password = password
    return components.string
  }

  /// The feed's credentials, for an enclosure on the feed's own host (scheme, host and port):
  /// a paid feed's audio often needs the same login. Never for another host.
  public static func forEnclosure(_ url: String, feedURL: String?) -> FeedCredentials? {
    guard let feedURL, let credentials = of(feedURL), of(url) == nil,
      let feed = URLComponents(string: feedURL), let enclosure = URLComponents(string: url),
      feed.scheme?.lowercased() == enclosure.scheme?.lowercased(),
      feed.host?.lowercased() == enclosure.host?.lowercased(), feed.port == enclosure.port
    else { return nil }
    return credentials
  }

  /// The credentials written into `url`, if any.
  public static func of(_ url: String) -> FeedCredentials? {
    guard let components = URLComponents(string: url), let user = components.user else {
      return nil
    }
    return FeedCredentials(user: user, password: components.password ?? "")
  }
}
