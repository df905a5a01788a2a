import Basics
import Foundation

/// Which of a feed's episodes a command considers, as the user wrote it: `--match`,
/// `--exclude`, `--match-in`, `--since`, `--until`, `--min-duration`, `--max-duration`,
/// `--type`. Stored as given (ages stay ages); `predicate(now:)` turns it into a test.
public struct EpisodeFilter: Codable, Sendable, Equatable {
  public enum Field: String, Codable, Sendable, CaseIterable {
    case title
    case description
  }

  public var match: String?
  public var exclude: String?
  /// Where `match` and `exclude` look; nil means the title only.
  public var matchIn: [Field]?
  public var since: String?
  public var until: String?
  /// Seconds.
  public var minDuration: Int?
  public var maxDuration: Int?
  /// `full`, `trailer` or `bonus`.
  public var type: String?

  public init(
    match: String? = nil, exclude: String? = nil, matchIn: [Field]? = nil, since: String? = nil,
    until: String? = nil, minDuration: Int? = nil, maxDuration: Int? = nil, type: String? = nil
  ) {
    self.match = match
    self.exclude = exclude
    self.matchIn = matchIn
    self.since = since
    self.until = until
    self.minDuration = minDuration
    self.maxDuration = maxDuration
    self.type = type
  }

  public static let episodeTypes = ["full", "trailer", "bonus"]

  public var isEmpty: Bool { self == EpisodeFilter() }

  /// Fields from `other` replace this one's where `other` has them.
  public func overridden(by other: EpisodeFilter) -> EpisodeFilter {
    EpisodeFilter(
      match: other.match ?? match, exclude: other.exclude ?? exclude,
      matchIn: other.matchIn ?? matchIn, since: other.since ?? since,
      until: other.until ?? until, minDuration: other.minDuration ?? minDuration,
      maxDuration: other.maxDuration ?? maxDuration, type: other.type ?? type)
  }

  /// Parses `title,description`.
  public static func fields(_ text: String) throws -> [Field] {
    let fields = try text.split(separator: ",").map { part -> Field in
      let name = part.trimmingCharacters(in: .whitespaces).lowercased()
      guard let field = Field(rawValue: name) else { throw FilterError.badField(text) }
      return field
    }
    if fields.isEmpty { throw FilterError.badField(text) }
    return fields
  }

  /// Compiles the expressions and resolves ages against `now`; throws on the first bad value.
  public func predicate(now: Date = Date()) throws -> EpisodePredicate {
    try EpisodePredicate(filter: self, now: now)
  }
}
