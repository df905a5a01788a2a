import Basics

/// The media file an episode points at.
public struct Enclosure: Sendable, Equatable, Codable {
  /// Absolute http(s) URL (relative URLs are resolved against the feed URL by the parser).
  public var url: String
  /// Announced size in bytes; nil when the feed gives none or garbage ("", "0", "12 MB" is parsed).
  public var length: Int64?
  /// MIME type as the feed announces it.
  public var type: String?

  public init(url: String, length: Int64? = nil, type: String? = nil) {
    self.url = url
    self.length = length
    self.type = type
  }
}
