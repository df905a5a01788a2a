import Foundation
import PodcastKit

/// How numbers, sizes and dates read in tables and progress lines.
enum Format {
  /// `1 episode`, `2 episodes`.
  static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  static func duration(_ seconds: Int?) -> String {
    guard let seconds, seconds > 0 else { return "" }
    let hours = seconds / 3600
    let minutes = seconds % 3600 / 60
    let rest = seconds % 60
    return hours > 0
      ? String(format: "%d:%02d:%02d", hours, minutes, rest)
      : String(format: "%d:%02d", minutes, rest)
  }

  static func bytes(_ count: Int64?) -> String {
    guard let count, count > 0 else { return "" }
    let units = ["B", "kB", "MB", "GB", "TB"]
    var value = Double(count)
    var unit = 0
    while value >= 1000, unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return unit == 0
      ? "\(count) B" : String(format: value < 10 ? "%.1f %@" : "%.0f %@", value, units[unit])
  }

  /// `2024-05-01`, the day in local time (`TZ`), as `time` would show it.
  static func day(_ date: Date?) -> String {
    guard let date else { return "" }
    return String(time(date).prefix(10))
  }

  /// `2024-05-01 12:00 +02:00`: local time (`TZ`) with its offset, the one way every table
  /// shows a moment (JSON says `2024-05-01T10:00:00Z`). Written by hand: Foundation's format
  /// styles load ICU, 3 MB of memory for one listing.
  static func time(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    guard localtime_r(&seconds, &parts) != nil else { return ISO8601.string(date) }
    let offset = Int(parts.tm_gmtoff)
    let sign = offset < 0 ? "-" : "+"
    return String(
      format: "%04d-%02d-%02d %02d:%02d %@%02d:%02d", Int(parts.tm_year) + 1900,
      Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), sign,
      abs(offset) / 3600, abs(offset) % 3600 / 60)
  }

  /// How long ago `date` was, in the largest whole unit: `just now`, `5 minutes ago`,
  /// `1 hour ago`, `3 days ago` (a moment in the future, a clock set back, is `just now`).
  static func age(since date: Date, now: Date = Date()) -> String {
    let seconds = Int(now.timeIntervalSince(date))
    let (count, unit): (Int, String) =
      switch seconds {
      case ..<60: (0, "")
      case ..<3600: (seconds / 60, "minute")
      case ..<86400: (seconds / 3600, "hour")
      default: (seconds / 86400, "day")
      }
    return count == 0 ? "just now" : "\(count) \(unit)\(count == 1 ? "" : "s") ago"
  }

  /// Rounded down: 300 kB of 301 kB is 99%, not a finished-looking 100%.
  static func percent(_ fraction: Double) -> String {
    String(format: "%3d%%", Int((min(1, max(0, fraction)) * 100).rounded(.down)))
  }

  /// One line of free text for a table cell: no newlines, tabs or runs of spaces, and nothing
  /// a terminal would interpret (see `TerminalText.safe`).
  static func singleLine(_ text: String?) -> String {
    guard let text else { return "" }
    return TerminalText.safe(text).split(whereSeparator: { $0.isWhitespace }).joined(
      separator: " ")
  }
}
