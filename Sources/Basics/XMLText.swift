import Foundation

/// Text as the XML files we write take it (OPML exports, folder feeds), and back.
public enum XMLText {
  /// Element text or an attribute value: the five XML escapes, and line breaks and tabs as
  /// character references (a parser folds raw ones into spaces inside an attribute). The
  /// characters XML cannot hold at all (other controls, U+FFFE, U+FFFF) are left out;
  /// everything else, emoji included, stays UTF-8.
  public static func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += "&#10;"
      case "\r": out += "&#13;"
      case "\t": out += "&#9;"
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        continue
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// What `escaped` wrote, read back (for a value we find again in a file we wrote).
  public static func unescaped(_ text: String) -> String {
    guard text.contains("&") else { return text }
    return text.replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
      .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&#10;", with: "\n")
      .replacingOccurrences(of: "&#13;", with: "\r").replacingOccurrences(of: "&#9;", with: "\t")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  /// `Mon, 06 May 2024 10:00:00 +0000`: RSS 2.0's and OPML's date, in English whatever the
  /// locale.
  public static func rfc822(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
    return formatter.string(from: date)
  }
}
