import Foundation

/// The dates HTTP sends in `Retry-After` (and `Last-Modified`, which is only echoed back, never
/// parsed): IMF-fixdate, plus the obsolete RFC 850 and asctime forms RFC 9110 says a recipient
/// must still read. They are RFC 822 dates, so the package's one RFC 822 scanner reads them
/// (`FeedDate`, hand-written, locale-free): one parser to fix, not one per caller.
enum HTTPDate {
  static func parse(_ text: String) -> Date? {
    FeedDate.parse(text)
  }
}
