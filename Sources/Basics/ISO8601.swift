import Foundation

/// `2024-05-01T10:00:00Z`: UTC, whole seconds, proleptic Gregorian like `FeedDate` (the same
/// text as Foundation's ISO 8601 style from 1582 on; before that Foundation turns Julian).
public enum ISO8601 {
  /// Written by hand: Foundation's ISO 8601 format style brings in ICU, which cost 2 MB of
  /// memory and a tenth of a second on the 20,000 dates of a large feed listing.
  public static func string(_ date: Date) -> String {
    var bytes: [UInt8] = []
    append(date, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `2024-05-01`: the day of `date` in UTC, as `string` starts.
  public static func day(_ date: Date) -> String {
    var bytes: [UInt8] = []
    append(date, to: &bytes)
    let end = bytes.firstIndex(of: UInt8(ascii: "T")) ?? bytes.endIndex
    return String(decoding: bytes[..<end], as: UTF8.self)
  }

  /// The same text as `string`, digit by digit: string interpolation of every date is a
  /// visible part of a large `episodes --json`.
  public static func append(_ date: Date, to bytes: inout [UInt8]) {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let days = (seconds - positiveRemainder(seconds, 86_400)) / 86_400
    let time = positiveRemainder(seconds, 86_400)
    let (year, month, day) = civil(fromDays: days)
    if year < 0 { bytes.append(UInt8(ascii: "-")) }
    digits(abs(year), 4, &bytes)
    bytes.append(UInt8(ascii: "-"))
    digits(month, 2, &bytes)
    bytes.append(UInt8(ascii: "-"))
    digits(day, 2, &bytes)
    bytes.append(UInt8(ascii: "T"))
    digits(time / 3600, 2, &bytes)
    bytes.append(UInt8(ascii: ":"))
    digits(time / 60 % 60, 2, &bytes)
    bytes.append(UInt8(ascii: ":"))
    digits(time % 60, 2, &bytes)
    bytes.append(UInt8(ascii: "Z"))
  }

  /// `value` in decimal, zero-padded to at least `width` digits.
  private static func digits(_ value: Int, _ width: Int, _ bytes: inout [UInt8]) {
    var divisor = 1
    var count = 1
    while divisor <= value / 10 {
      divisor *= 10
      count += 1
    }
    for _ in count..<max(width, count) { bytes.append(UInt8(ascii: "0")) }
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
      divisor /= 10
    }
  }

  /// Howard Hinnant's civil_from_days: the proleptic Gregorian date `days` after 1970-01-01.
  private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func positiveRemainder(_ value: Int, _ divisor: Int) -> Int {
    let remainder = value % divisor
    return remainder < 0 ? remainder + divisor : remainder
  }
}
