import Basics

/// A Podcasting 2.0 `<podcast:transcript>`: a text version of the episode a player can show.
public struct Transcript: Sendable, Hashable {
  public var url: String
  /// `text/vtt`, `application/x-subrip`, `application/json`, `text/html`, ... as the feed says.
  public var type: String?
  /// BCP 47 code such as `en` or `es-MX`.
  public var language: String?

  public init(url: String, type: String? = nil, language: String? = nil) {
    self.url = url
    self.type = type
    self.language = language
  }
}
