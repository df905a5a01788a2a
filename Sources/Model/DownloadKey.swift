/// What a download row is keyed by: the episode, not the link it happens to have. An episode
/// of a known feed is its feed and its `EpisodeIdentity` key, so a link that gains a new query
/// string (signed or tokenised links, tracking prefixes) is still the same download, and its
/// partial file (`LibraryPaths.partial(forKey:)`) keeps its name. A download with no feed or
/// no identity (never the case for `download` and `sync`) is keyed by its URL, as every row
/// was before episodes keyed them: such a key names the same partial file a URL did.
public struct DownloadKey: Hashable, Sendable, Codable, CustomStringConvertible {
  /// As stored in the `key` column.
  public let text: String

  public init(text: String) {
    self.text = text
  }

  /// A URL never holds a line feed; an `EpisodeIdentity` key always starts with its kind
  /// ("guid:", "url:", "title:"), so neither part can be mistaken for the other.
  public init(feedURL: String?, episodeKey: String?, url: String) {
    if let feedURL, !feedURL.isEmpty, let episodeKey, !episodeKey.isEmpty {
      text = feedURL + "\n" + episodeKey
    } else {
      text = url
    }
  }

  public var description: String { text }

  public init(from decoder: any Decoder) throws {
    text = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
  }
}
