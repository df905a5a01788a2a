import Basics

/// Builds URL query strings the way the iTunes API documents them: UTF-8 percent-encoding,
/// spaces as `+`, and every character outside the unreserved set escaped, so `&`, `=`, `+`
/// and `#` in a search term can never split or end the query.
package enum QueryString {
  package static func encode(_ items: [(name: String, value: String)]) -> String {
    items.map { escape($0.name) + "=" + escape($0.value) }.joined(separator: "&")
  }

  package static func escape(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      case UInt8(ascii: " "):
        out += "+"
      default:
        out += "%" + hex(byte >> 4) + hex(byte & 0x0F)
      }
    }
    return out
  }

  private static func hex(_ nibble: UInt8) -> String {
    String(Unicode.Scalar(nibble < 10 ? nibble + 48 : nibble + 55))
  }
}
