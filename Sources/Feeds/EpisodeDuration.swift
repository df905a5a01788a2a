import Basics
import Foundation

/// Reads `itunes:duration` values: `H:MM:SS`, `M:SS`, plain seconds (with decimals), and the
/// unit-suffixed forms some hosts write ("45 min", "1h 30m"). Garbage gives nil, never 0.
public enum EpisodeDuration {
  /// Whole seconds, or nil when the text is not a duration.
  public static func seconds(_ text: String) -> Int? {
    // Quotes and brackets around a value ("\"00:13:11\"", "(20:11)") are template noise.
    let trimmed =
      String.isSurelyTrimmed(text, extra: "\"'()[]")
      ? text : text.trimmingCharacters(in: Self.noise)
    guard !trimmed.isEmpty, trimmed.utf8.count <= 32 else { return nil }
    // On the bytes: `String.contains` went through Foundation's `range(of:)`, most of the
    // cost of every item's duration.
    if trimmed.utf8.contains(UInt8(ascii: ":")) { return clockSeconds(trimmed) }
    if let value = Double(trimmed) { return wholeSeconds(value) }
    return unitSeconds(trimmed.lowercased())
  }

  private static let noise = CharacterSet.whitespacesAndNewlines.union(
    CharacterSet(charactersIn: "\"'()[]"))

  /// `H:MM:SS`, `M:SS`, `MM:SS.fff`; the last field may carry decimals.
  private static func clockSeconds(_ text: String) -> Int? {
    if let seconds = digitClockSeconds(text.utf8) { return seconds }
    return decimalClockSeconds(text)
  }

  /// The form nearly every item has, ASCII digits and colons only, read byte by byte: going
  /// through `Character` and `Double` cost 15,000 instructions per item of a large listing.
  /// nil sends anything else (decimals, stray characters) to the general reader.
  private static func digitClockSeconds(_ bytes: String.UTF8View) -> Int? {
    var total = 0
    var field = 0
    var digits = 0
    var fields = 1
    for byte in bytes {
      if byte == UInt8(ascii: ":") {
        guard digits > 0, fields < 3 else { return nil }
        total = total * 60 + field
        (field, digits, fields) = (0, 0, fields + 1)
      } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"), digits < 9 {
        field = field * 10 + Int(byte - UInt8(ascii: "0"))
        digits += 1
      } else {
        return nil
      }
    }
    guard digits > 0 else { return nil }
    return wholeSeconds(Double(total * 60 + field))
  }

  private static func decimalClockSeconds(_ text: String) -> Int? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count <= 3 else { return nil }
    var total = 0.0
    for (offset, part) in parts.enumerated() {
      let isLast = offset == parts.count - 1
      guard !part.isEmpty,
        part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
        let value = Double(part)
      else { return nil }
      total = total * 60 + value
    }
    return wholeSeconds(total)
  }

  /// "45 min", "1h 30m 10s", "90 minutes", "3600 sec".
  private static func unitSeconds(_ text: String) -> Int? {
    var total = 0.0
    var number = ""
    var sawUnit = false
    var index = text.startIndex
    while index < text.endIndex {
      let char = text[index]
      if char.isASCII && (char.isNumber || char == ".") {
        number.append(char)
        index = text.index(after: index)
      } else if char.isLetter {
        var unit = ""
        while index < text.endIndex, text[index].isLetter {
          unit.append(text[index])
          index = text.index(after: index)
        }
        if unit == "and" && number.isEmpty { continue }
        guard let value = Double(number), let scale = unitScale(unit) else { return nil }
        total += value * scale
        number = ""
        sawUnit = true
      } else if char == " " || char == "," {
        index = text.index(after: index)
      } else {
        return nil
      }
    }
    guard sawUnit, number.isEmpty else { return nil }
    return wholeSeconds(total)
  }

  private static func unitScale(_ unit: String) -> Double? {
    switch unit {
    case "h", "hr", "hrs", "hour", "hours": return 3600
    case "m", "min", "mins", "minute", "minutes": return 60
    case "s", "sec", "secs", "second", "seconds": return 1
    default: return nil
    }
  }

  /// Ten days is longer than any real episode; beyond that the value is a mistake.
  private static func wholeSeconds(_ value: Double) -> Int? {
    guard value.isFinite, value >= 0, value < 864_000 else { return nil }
    return Int(value)
  }
}
