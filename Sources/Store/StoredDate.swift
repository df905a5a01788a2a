import Foundation
internal import GRDB
import Model

#if canImport(Glibc)
  import Glibc
#endif

/// A date bound into a statement in the text GRDB stores dates as (`yyyy-MM-dd HH:mm:ss.SSS`,
/// UTC), written by hand: GRDB formats each bound `Date` through a `DateFormatter`, which was
/// a third of the cost of recording a feed's new episodes. Reads stay GRDB's: the text is the
/// same.
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
    var text = ""
    text.reserveCapacity(23)
    func append(_ value: Int, digits: Int) {
      var divisor = 1
      for _ in 1..<digits { divisor *= 10 }
      var rest = value
      while divisor > 0 {
        text.unicodeScalars.append(Unicode.Scalar(UInt8(48 + rest / divisor)))
        rest %= divisor
        divisor /= 10
      }
    }
    append(Int(parts.tm_year) + 1900, digits: 4)
    text += "-"
    append(Int(parts.tm_mon) + 1, digits: 2)
    text += "-"
    append(Int(parts.tm_mday), digits: 2)
    text += " "
    append(Int(parts.tm_hour), digits: 2)
    text += ":"
    append(Int(parts.tm_min), digits: 2)
    text += ":"
    append(Int(parts.tm_sec), digits: 2)
    text += "."
    append(fraction, digits: 3)
    return text
  }
}
