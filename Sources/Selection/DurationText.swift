import Basics
import Foundation

/// Durations as people type them: `45s`, `10m`, `1h30m`, `1:30:00`, `90:00`.
public enum DurationText {
  /// Seconds.
  public static func seconds(_ text: String, setting: String) throws -> Int {
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    if let value = clock(trimmed) ?? units(trimmed) { return value }
    throw FilterError.badDuration(setting: setting, text: text)
  }

  private static func clock(_ text: String) -> Int? {
    guard text.contains(":") else { return nil }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
    guard (2...3).contains(parts.count), parts.allSatisfy({ ($0 ?? -1) >= 0 }) else { return nil }
    return parts.reduce(0) { $0 * 60 + ($1 ?? 0) }
  }

  /// A bare number is refused: 10 could be seconds or minutes, and a filter that silently
  /// means the wrong one drops every episode.
  private static func units(_ text: String) -> Int? {
    var total = 0
    var digits = ""
    var sawUnit = false
    for character in text {
      if character.isASCII, character.isNumber {
        digits.append(character)
        continue
      }
      let scale: Int
      switch character {
      case "h": scale = 3_600
      case "m": scale = 60
      case "s": scale = 1
      default: return nil
      }
      guard let value = Int(digits) else { return nil }
      total += value * scale
      digits = ""
      sawUnit = true
    }
    return sawUnit && digits.isEmpty ? total : nil
  }
}

extension DurationText {
  /// `5400` -> `1h30m`, a form `seconds(_:setting:)` reads back.
  public static func text(_ seconds: Int) -> String {
    let parts = [(seconds / 3_600, "h"), (seconds % 3_600 / 60, "m"), (seconds % 60, "s")]
    let text = parts.filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }.joined()
    return text.isEmpty ? "0s" : text
  }
}
