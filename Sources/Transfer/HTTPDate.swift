import Basics
import Foundation

/// The dates HTTP sends in `Retry-After` (and `Last-Modified`, which is only echoed back, never
/// parsed): IMF-fixdate, plus the obsolete RFC 850 and asctime forms RFC 9110 says a recipient
/// must still read, and nothing else: a lenient reader would turn a server's typo into a
/// wait. Read with fixed-format POSIX formatters in GMT (this toolchain's Foundation has no
/// `Date.HTTPFormatStyle`); made per call, as Retry-After is rare and a formatter is not
/// safe to share between threads.
package enum HTTPDate {
  private static let formats = [
    "EEE',' dd MMM yyyy HH':'mm':'ss 'GMT'",  // IMF-fixdate
    "EEEE',' dd'-'MMM'-'yy HH':'mm':'ss 'GMT'",  // RFC 850
    "EEE MMM d HH':'mm':'ss yyyy",  // asctime
  ]

  package static func parse(_ text: String) -> Date? {
    let text = text.trimmingCharacters(in: .whitespaces)
    for format in formats {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.isLenient = false
      // RFC 9110: a two-digit year more than 50 years ahead is in the past century.
      formatter.twoDigitStartDate = Date(timeIntervalSinceNow: -49 * 365 * 86_400)
      formatter.dateFormat = format
      // asctime pads a one-digit day with a space: "Nov  6".
      let input =
        format.hasPrefix("EEE MMM d") ? text.replacingOccurrences(of: "  ", with: " ") : text
      if let date = formatter.date(from: input) { return date }
    }
    return nil
  }
}
