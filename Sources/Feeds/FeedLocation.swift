/// Where a feed is read from, once a FEED argument has been resolved (what a subscription
/// stores, what the resolver returns): a URL on the web, or a local file path.
public enum FeedLocation {
  /// Whether `location` is on the web; every other location is a local file path. The one
  /// place that decides "URL or file?" for a location already classified.
  public static func isRemote(_ location: String) -> Bool {
    scheme(of: location) != nil
  }

  /// The lowercased scheme of `text` when it has the `scheme://` shape, else nil.
  public static func scheme(of text: String) -> String? {
    guard let colon = text.range(of: "://") else { return nil }
    let scheme = text[..<colon.lowerBound]
    guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" }) else {
      return nil
    }
    return scheme.lowercased()
  }
}
