import Basics
import Feeds
import Foundation

/// An `EpisodeFilter` made ready to test thousands of episodes: expressions compiled once,
/// dates resolved once.
public struct EpisodePredicate: @unchecked Sendable {
  // NSRegularExpression is immutable once built, so sharing it across tasks is safe.
  private let match: NSRegularExpression?
  private let exclude: NSRegularExpression?
  private let fields: [EpisodeFilter.Field]
  private let since: Date?
  private let until: Date?
  private let minDuration: Int?
  private let maxDuration: Int?
  private let type: String?

  public init(filter: EpisodeFilter, now: Date = Date()) throws {
    match = try filter.match.map { try Self.regex($0, setting: "match") }
    exclude = try filter.exclude.map { try Self.regex($0, setting: "exclude") }
    fields = filter.matchIn ?? [.title]
    since = try filter.since.map { try DateBound.resolve($0, setting: "since", now: now) }
    until = try filter.until.map { try Self.until($0, now: now) }
    minDuration = filter.minDuration
    maxDuration = filter.maxDuration
    if let type = filter.type, !EpisodeFilter.episodeTypes.contains(type.lowercased()) {
      throw FilterError.badEpisodeType(type)
    }
    type = filter.type?.lowercased()
  }

  /// Whether the episode passes every given test. An episode that lacks what a test looks at
  /// (no date, no duration) fails it: a filter asked for episodes known to fit.
  public func accepts(_ episode: Episode) -> Bool {
    let text = fields.map { field in
      switch field {
      case .title: episode.title ?? ""
      case .description: episode.description ?? ""
      }
    }
    if let match, !text.contains(where: { Self.finds(match, in: $0) }) { return false }
    if let exclude, text.contains(where: { Self.finds(exclude, in: $0) }) { return false }
    if since != nil || until != nil {
      guard let published = episode.published else { return false }
      if let since, published < since { return false }
      if let until, published >= until { return false }
    }
    if minDuration != nil || maxDuration != nil {
      guard let duration = episode.duration else { return false }
      if let minDuration, duration < minDuration { return false }
      if let maxDuration, duration > maxDuration { return false }
    }
    // Feeds without itunes:episodeType are full episodes, as Apple's spec says.
    if let type, (episode.episodeType?.lowercased() ?? "full") != type { return false }
    return true
  }

  /// The 1-based indexes (the feed's own numbering) of the episodes that pass.
  public func indexes(in episodes: [Episode]) -> [Int] {
    episodes.indices.filter { accepts(episodes[$0]) }.map { $0 + 1 }
  }

  /// `--until 2024-05-01` includes that whole day: the bound is the next midnight.
  private static func until(_ text: String, now: Date) throws -> Date {
    try DateBound.end(text, setting: "until", now: now)
  }

  private static func regex(_ pattern: String, setting: String) throws -> NSRegularExpression {
    do {
      return try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
    } catch {
      throw FilterError.badRegex(
        setting: setting, pattern: pattern, reason: "unbalanced or invalid syntax")
    }
  }

  private static func finds(_ regex: NSRegularExpression, in text: String) -> Bool {
    regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }
}
