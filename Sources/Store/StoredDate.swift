import Foundation
internal import GRDB
import Model

#if canImport(Glibc)
  import Glibc
#endif

/// A date bound into a statement in the text GRDB stores dates as (`yyyy-MM-dd HH:mm:ss.SSS`,
/// UTC), written by hand: GRDB formats each bound `Date` through a `DateFormatter`, costly on
/// the paths every feed and download takes. The store's hot reads parse it by
/// hand too (`date(_:)`); other reads stay GRDB's: the text is the same.
struct StoredDate: DatabaseValueConvertible {
  var date: Date

  init(_ date: Date) {
    self.date = date
  }

  var databaseValue: DatabaseValue {
    Self.text(date)?.databaseValue ?? date.databaseValue
  }

  static func fromDatabaseValue(_ value: DatabaseValue) -> StoredDate? {
    Date.fromDatabaseValue(value).map(StoredDate.init)
  }

  /// `value` for binding: a `Date` as a `StoredDate`, anything else as it is.
  static func binding(_ value: (any DatabaseValueConvertible)?) -> (any DatabaseValueConvertible)? {
    guard let date = value as? Date else { return value }
    return StoredDate(date)
  }

  /// The text, or nil outside the years 1 to 9999 (left to GRDB's formatter).
  static func text(_ date: Date) -> String? {
    // Rounded to the millisecond, as the formatter does (.1239 s is ".124").
    let total = (date.timeIntervalSince1970 * 1000).rounded()
    // 0001-01-01 and 10000-01-01, UTC.
    guard total >= -62_135_596_800_000, total < 253_402_300_800_000 else { return nil }
    let milliseconds = Int64(total)
    let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
    var time = time_t(remainder < 0 ? quotient - 1 : quotient)
    let fraction = Int(remainder < 0 ? remainder + 1000 : remainder)
    var parts = tm()
    guard gmtime_r(&time, &parts) != nil else { return nil }
    // Written straight into the string's storage: one allocation, not an array and a copy.
    return String(unsafeUninitializedCapacity: 23) { text in
      func put(_ value: Int, at end: Int, digits: Int) {
        var rest = value
        for index in stride(from: end, to: end - digits, by: -1) {
          text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
      }
      put(Int(parts.tm_year) + 1900, at: 3, digits: 4)
      text[4] = UInt8(ascii: "-")
      put(Int(parts.tm_mon) + 1, at: 6, digits: 2)
      text[7] = UInt8(ascii: "-")
      put(Int(parts.tm_mday), at: 9, digits: 2)
      text[10] = UInt8(ascii: " ")
      put(Int(parts.tm_hour), at: 12, digits: 2)
      text[13] = UInt8(ascii: ":")
      put(Int(parts.tm_min), at: 15, digits: 2)
      text[16] = UInt8(ascii: ":")
      put(Int(parts.tm_sec), at: 18, digits: 2)
      text[19] = UInt8(ascii: ".")
      put(fraction, at: 22, digits: 3)
      return 23
    }
  }

  /// The date in `text` when it is in the form `text(_:)` writes, from 1583 on; nil for any
  /// other form (GRDB reads those, and dates before 1583, which Foundation counts in the Julian
  /// calendar).
  static func date(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
    guard text.count == 23, text[4] == 45, text[7] == 45, text[10] == 32, text[13] == 58,
      text[16] == 58, text[19] == 46
    else { return nil }
    func number(_ start: Int, _ count: Int) -> Int? {
      var value = 0
      for index in start..<(start + count) {
        let digit = Int(text[index]) - 48
        guard digit >= 0, digit <= 9 else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      let millisecond = number(20, 3), year >= 1583, (1...12).contains(month),
      (1...31).contains(day),
      hour < 24, minute < 60, second < 61
    else { return nil }
    // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    let shifted = month <= 2 ? year - 1 : year
    let era = (shifted >= 0 ? shifted : shifted - 399) / 400
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
    return Date(timeIntervalSince1970: Double(seconds) + Double(millisecond) / 1000)
  }
}
