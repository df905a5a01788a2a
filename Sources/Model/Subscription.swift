import Basics
import Foundation

/// A feed the library follows, as stored: `id` is its row's, assigned when it was added.
/// `name` is the short handle users type.
public struct Subscription: Codable, Sendable, Equatable {
  public let id: Int64
  public var name: String
  public var feedURL: String
  public var title: String?
  /// How many downloaded episodes sync keeps; nil keeps everything.
  public var keep: Int?
  public var addedAt: Date
  public var lastChecked: Date?
  /// Validators from the last successful fetch, for the next conditional GET.
  public var etag: String?
  public var lastModified: String?
  public var lastError: String?

  public init(
    id: Int64, name: String, feedURL: String, title: String? = nil, keep: Int? = nil,
    addedAt: Date = Date(), lastChecked: Date? = nil, etag: String? = nil,
    lastModified: String? = nil, lastError: String? = nil
  ) {
    self.id = id
    self.name = name
    self.feedURL = feedURL
    self.title = title
    self.keep = keep
    self.addedAt = addedAt
    self.lastChecked = lastChecked
    self.etag = etag
    self.lastModified = lastModified
    self.lastError = lastError
  }

  /// The name as duplicates are compared: case-insensitive, Unicode-aware.
  package static func nameKey(_ name: String) -> String { name.lowercased() }
}
