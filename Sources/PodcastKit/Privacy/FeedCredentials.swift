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

  /// The credentials written into `url`, if any.
  public static func of(_ url: String) -> FeedCredentials? {
    guard let components = URLComponents(string: url), let user = components.user else {
      return nil
    }
    return FeedCredentials(user: user, password: components.password ?? "")
  }
}
