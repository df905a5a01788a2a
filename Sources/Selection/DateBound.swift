import Basics
import Foundation

/// A `--since`/`--until` value: a calendar date (`2024-05-01`, read as midnight UTC), a full
/// ISO 8601 time, or an age (`30d`, `2w`, `12h`) counted back from the moment of use. Ages stay
/// text when stored, so a subscription's `--since 30d` keeps meaning "the last 30 days".
public enum DateBound {
  public static func resolve(_ text: String, setting: String, now: Date = Date()) throws -> Date {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let age = age(trimmed) { return now.addingTimeInterval(-age) }
    if let date = calendarDay(trimmed) ?? (try? Date(trimmed, strategy: .iso8601)) {
      return date
    }
    throw FilterError.badDate(setting: setting, text: text)
  }

  /// A bound things must come before: `resolve`, except that a calendar date takes in that
  /// whole day (`--until 2024-05-01` ends at the next midnight).
  public static func end(_ text: String, setting: String, now: Date = Date()) throws -> Date {
    let date = try resolve(text, setting: setting, now: now)
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    return calendarDay(trimmed) != nil ? date.addingTimeInterval(86_400) : date
  }

  /// An age alone (`30d`, `2w`, `12h`, or `0`), in seconds: how long after something happened.
  public static func age(_ text: String, setting: String) throws(FilterError) -> TimeInterval {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed == "0" { return 0 }
    guard let age = age(trimmed) else { throw FilterError.badAge(setting: setting, text: text) }
    return age
  }

  private static func age(_ text: String) -> TimeInterval? {
    guard let unit = text.last, let count = Int(text.dropLast()), count >= 0 else { return nil }
    let seconds: Double
    switch unit {
    case "h": seconds = 3_600
    case "d": seconds = 86_400
    case "w": seconds = 7 * 86_400
    case "y": seconds = 365 * 86_400
    default: return nil
    }
    return Double(count) * seconds
  }

  private static func calendarDay(_ text: String) -> Date? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let components = DateComponents(year: year, month: month, day: day)
    guard components.isValidDate(in: calendar) else { return nil }
    return calendar.date(from: components)
  }
}
