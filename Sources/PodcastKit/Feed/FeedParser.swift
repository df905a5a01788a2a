import Foundation

/// Reads RSS 2.0/0.9x and Atom 1.0 podcast feeds. Placeholder until the parser lands.
public enum FeedParser {
  /// Parses a feed held in memory. `baseURL` resolves relative links (the feed's own URL).
  public static func parse(_ data: Data, baseURL: String?) throws -> Feed {
    throw FeedError.empty
  }

  /// Parses a feed file, streaming it so memory stays flat on very large feeds.
  public static func parse(contentsOfFile path: String, baseURL: String?) throws -> Feed {
    throw FeedError.unreadable(path: path, reason: "not implemented")
  }
}
