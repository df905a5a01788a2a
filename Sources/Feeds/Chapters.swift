import Basics

/// A Podcasting 2.0 `<podcast:chapters>` file: the episode's chapter marks, usually JSON.
public struct Chapters: Sendable, Equatable {
  public var url: String
  /// `application/json+chapters` for the Podcasting 2.0 format.
  public var type: String?

  public init(url: String, type: String? = nil) {
    self.url = url
    self.type = type
  }
}
