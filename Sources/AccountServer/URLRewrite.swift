import Basics

/// A URL the server changed as it stored it (gpodder.net's `update_urls`: tracking parameters
/// dropped, a scheme added). The subscription should follow it, under the new URL.
public struct URLRewrite: Sendable, Equatable {
  public var old: String
  /// nil when the server answered with an empty URL: it refused the feed and stored nothing.
  public var new: String?

  public init(old: String, new: String?) {
    self.old = old
    self.new = new
  }
}
