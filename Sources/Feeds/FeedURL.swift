import Basics
import Foundation

/// Turns the URLs a feed writes into absolute http(s) URLs: relative ones are resolved against
/// the feed's own URL (or an `xml:base`), anything that is not http or https is refused.
package enum FeedURL {
  /// `text` made absolute against `base`; nil when empty or not resolvable.
  package static func resolve(_ text: String, against base: String?) -> String? {
    // Nearly every URL in a feed is already absolute http(s) and trimmed: one check, no copy.
    if String.isSurelyTrimmed(text) && hasWebScheme(text) { return text }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return nil }
    if hasWebScheme(trimmed) || hasScheme(trimmed) { return trimmed }
    // `//host/x.mp3` takes the feed's scheme; a local feed file has no web scheme to lend.
    if trimmed.hasPrefix("//"), base.map(isFileURL) ?? true { return "https:" + trimmed }
    guard let base, let baseURL = URL(string: base),
      let resolved = URL(string: trimmed, relativeTo: baseURL)
        ?? URL(string: percentEscapedSpaces(trimmed), relativeTo: baseURL)
    else { return trimmed }
    return resolved.absoluteString
  }

  /// Whether `text` is an http or https URL: the only ones the program fetches.
  package static func hasWebScheme(_ text: String) -> Bool {
    startsIgnoringCase(text, with: "http://") || startsIgnoringCase(text, with: "https://")
  }

  /// `prefix` is lowercase ASCII; compared byte by byte, without building arrays per call.
  private static func startsIgnoringCase(_ text: String, with prefix: StaticString) -> Bool {
    let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
    // On the contiguous bytes: a `UTF8View` iterator cost ~250 instructions a call, and every
    // URL of every item is asked this a few times.
    var text = text
    return text.withUTF8 { bytes in
      guard bytes.count >= expected.count else { return false }
      for index in expected.indices where bytes[index].asciiLowercased != expected[index] {
        return false
      }
      return true
    }
  }

  /// Whether `text` names no scheme: a path or `//host/path` to resolve against a base.
  package static func isRelative(_ text: String) -> Bool {
    let trimmed = String.isSurelyTrimmed(text) ? text : text.trimmingCharacters(in: .whitespaces)
    return !hasScheme(trimmed)
  }

  package static func isFileURL(_ text: String) -> Bool {
    startsIgnoringCase(text, with: "file:")
  }

  /// `scheme:` at the start (RFC 3986: a letter, then letters, digits, + - .).
  private static func hasScheme(_ text: String) -> Bool {
    var sawLetter = false
    for byte in text.utf8 {
      if byte == 0x3A { return sawLetter }
      let lower = byte | 0x20
      let isLetter = lower >= 0x61 && lower <= 0x7A
      let isOther = (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E
      if !(isLetter || (sawLetter && isOther)) { return false }
      sawLetter = true
    }
    return false
  }

  private static func percentEscapedSpaces(_ text: String) -> String {
    text.replacingOccurrences(of: " ", with: "%20")
  }
}
