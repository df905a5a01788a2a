import Foundation
import Glibc

/// IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), the one date format HTTP/1.1 servers send.
/// Formatted by hand so that neither the locale nor a shared formatter is involved.
enum HTTPDate {
  private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  static func format(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(weekdays[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
      + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }

  /// Whole seconds since 1970 of an IMF-fixdate, or nil if `text` is not one.
  static func parse(_ text: String) -> Int? {
    // "Sun, 06 Nov 1994 08:49:37 GMT"; Glibc's strptime is not visible to Swift.
    let fields = text.split(separator: " ")
    guard fields.count == 6, fields[5] == "GMT",
      let day = Int32(fields[1]), let month = months.firstIndex(of: String(fields[2])),
      let year = Int32(fields[3])
    else { return nil }
    let clock = fields[4].split(separator: ":").compactMap { Int32($0) }
    guard clock.count == 3 else { return nil }
    var parts = tm()
    parts.tm_year = year - 1900
    parts.tm_mon = Int32(month)
    parts.tm_mday = day
    parts.tm_hour = clock[0]
    parts.tm_min = clock[1]
    parts.tm_sec = clock[2]
    return Int(timegm(&parts))
  }

  /// Whole seconds since 1970: the precision HTTP dates compare at.
  static func seconds(_ date: Date) -> Int {
    Int(date.timeIntervalSince1970.rounded(.down))
  }
}
