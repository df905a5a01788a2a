/// Where a feed is read from, once a FEED argument has been resolved (what a subscription
/// stores, what the resolver returns): a URL on the web, or a local file path.
public enum FeedLocation {
  /// Whether `location` is on the web; every other location is a local file path. The one
  /// place that decides "URL or file?" for a location already classified.
  public static func isRemote(_ location: String) -> Bool {
    schemeEnd(of: location) != nil
  }

  /// The lowercased scheme of `text` when it has the `scheme://` shape, else nil.
  public static func scheme(of text: String) -> String? {
    schemeEnd(of: text).map { text[..<$0].lowercased() }
  }

  /// Where the scheme of `text` ends (its "://") when it has the `scheme://` shape, else nil:
  /// no string made, for `isRemote` asks it of every feed of a sync, on the transfer thread.
  private static func schemeEnd(of text: String) -> String.Index? {
    // A scan of the bytes: `range(of:)` goes through NSString, and every feed of a sync asks.
    let bytes = text.utf8
    var index = bytes.startIndex
    var found: String.Index?
    while let colon = bytes[index...].firstIndex(of: UInt8(ascii: ":")) {
      if bytes[colon...].starts(with: "://".utf8) {
        found = colon
        break
      }
      index = bytes.index(after: colon)
    }
    guard let found else { return nil }
    let scheme = text[..<found]
    // ASCII letters, as nearly every scheme is, are read as bytes; Character's `isLetter`
    // looks up Unicode properties, for every feed of a sync.
    let isASCIILetter = { (byte: UInt8) in
      (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
    guard !scheme.isEmpty,
      scheme.utf8.allSatisfy(isASCIILetter)
        || scheme.allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" })
    else {
      return nil
    }
    return found
  }
}
