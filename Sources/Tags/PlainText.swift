import Basics
import Foundation

/// Show notes as a player's comment field can show them: feeds carry HTML, tags carry text.
package enum PlainText {
  /// Tags become nothing, block ends become line breaks, common entities are decoded, and
  /// runs of whitespace collapse; nil when nothing readable is left.
  package static func from(html: String) -> String? {
    var text = ""
    var rest = Substring(html)
    while let open = rest.firstIndex(of: "<") {
      text += rest[..<open]
      guard let close = rest[open...].firstIndex(of: ">") else {
        rest = rest[open...]
        break
      }
      if breaksLine(tag: rest[rest.index(after: open)..<close]) { text += "\n" }
      rest = rest[rest.index(after: close)...]
    }
    text += rest
    let lines = decodeEntities(text).split(whereSeparator: \.isNewline).map {
      $0.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    let result = lines.filter { !$0.isEmpty }.joined(separator: "\n")
    return result.isEmpty ? nil : result
  }

  private static let lineBreakingTags: Set<String> = [
    "br", "p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "blockquote",
  ]

  private static func breaksLine(tag: Substring) -> Bool {
    let name = tag.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter || $0.isNumber })
    return lineBreakingTags.contains(name.lowercased())
  }

  private static let namedEntities: [String: String] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "hellip": "…",
    "mdash": "—", "ndash": "–", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“",
    "copy": "©", "reg": "®", "trade": "™", "eacute": "é", "euro": "€",
  ]

  /// `&name;`, `&#NNN;` and `&#xHH;`; anything else stays as written.
  package static func decodeEntities(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var out = ""
    var rest = Substring(text)
    while let amp = rest.firstIndex(of: "&") {
      out += rest[..<amp]
      let afterAmp = rest.index(after: amp)
      let body = rest[afterAmp...].prefix(12)
      if let semi = body.firstIndex(of: ";"), let decoded = entity(rest[afterAmp..<semi]) {
        out += decoded
        rest = rest[rest.index(after: semi)...]
      } else {
        out += "&"
        rest = rest[afterAmp...]
      }
    }
    return out + rest
  }

  private static func entity(_ name: Substring) -> String? {
    if name.hasPrefix("#x") || name.hasPrefix("#X") {
      return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
    }
    if name.hasPrefix("#") {
      return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
    }
    return namedEntities[String(name)]
  }
}
