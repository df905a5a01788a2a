import Basics
import Foundation
import FullText

/// Show notes as a page of the archive may show them: whatever the feed said, reduced to an
/// allow-list of markup that cannot run anything or fetch anything.
///
/// Kept: paragraphs, line breaks, emphasis (`em`, `strong`, `i`, `b`), lists (`ul`, `ol`,
/// `li`), quotes (`blockquote`, `q`), code (`code`, `pre`), and links whose `href` is `http`,
/// `https` or `mailto` (given `rel="nofollow noopener noreferrer"`). Every other attribute goes
/// (no event handler, no `style`, no `src`). Dropped with everything inside them: `script`,
/// `style`, `iframe`, `object`, `svg`, `math`, `template` and the other elements whose
/// content is code or a document of its own. Any other element (an image, a `div`, a heading,
/// a table) goes, its text stays. Comments, doctypes and processing instructions go. Text is
/// written escaped, so `&lt;script&gt;` stays the visible text `<script>`. Notes without any
/// markup are plain text: blank lines make paragraphs, single line breaks stay line breaks.
///
/// The output is built from scratch (only what is listed here is ever written, every element
/// closed, every attribute value quoted and escaped), so a trick that confuses a browser's
/// parser about where a tag ends has nothing to work with. Pure: the same notes always make
/// the same text.
public enum ShowNotesHTML {
  /// The safe HTML for `notes` (HTML or plain text); empty for empty notes.
  public static func safe(_ notes: String) -> String {
    let bytes = Array(notes.utf8)
    // Plain text with a stray `<` or `&` is still plain text.
    guard MarkupText.hasTags(notes) else { return plainText(bytes) }
    var reduction = Reduction(bytes)
    reduction.run()
    return reduction.finished()
  }

  /// Plain notes: escaped, paragraphs at blank lines, line breaks kept.
  static func plainText(_ bytes: [UInt8]) -> String {
    let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    var paragraphs: [String] = []
    var lines: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.allSatisfy(\.isWhitespace) {
        if !lines.isEmpty { paragraphs.append(paragraph(lines)) }
        lines = []
      } else {
        lines.append(line)
      }
    }
    if !lines.isEmpty { paragraphs.append(paragraph(lines)) }
    return paragraphs.joined()
  }

  private static func paragraph(_ lines: [Substring]) -> String {
    "<p>" + lines.map { escaped(String($0.trimmingWhitespaceTail)) }.joined(separator: "<br>")
      + "</p>"
  }

  /// Text for an element or a quoted attribute value.
  static func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case _ where scalar.value < 0x20 && scalar != "\n" && scalar != "\t": continue
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// The `href` a link keeps: its value with character references resolved and the spaces
  /// and controls a browser ignores removed, if that is an `http`, `https` or `mailto` URL;
  /// nil otherwise (`javascript:`, `data:`, relative links, and a value with a reference this
  /// cannot resolve, which could hide a scheme).
  static func safeLink(_ raw: [UInt8]) -> String? {
    guard let decoded = CharacterReference.decodeAll(raw) else { return nil }
    let trimmed = decoded.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }
    let url = String(String.UnicodeScalarView(trimmed))
    let lower = url.lowercased()
    guard lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:")
    else { return nil }
    return url
  }

  /// Elements kept, as written.
  static let kept: Set<String> = [
    "p", "br", "a", "em", "strong", "i", "b", "ul", "ol", "li", "blockquote", "q", "code", "pre",
  ]

  /// Elements dropped with all they hold: their content is code, styling or a document of its
  /// own, never the notes' text.
  static let droppedWhole: Set<String> = [
    "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "svg", "math",
    "template", "noscript", "noembed", "noframes", "textarea", "title", "xmp", "select", "head",
    "audio", "video", "canvas", "map", "form", "button",
  ]

  /// Elements whose content the HTML parser reads as raw text up to their own end tag (no
  /// markup inside): skipped to that end tag, whatever is in between.
  static let rawText: Set<String> = [
    "script", "style", "iframe", "noembed", "noframes", "textarea", "title", "xmp", "noscript",
  ]

  /// Elements that end a line: their text is followed by a line break when they go.
  static let blocks: Set<String> = [
    "div", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header", "footer", "tr",
    "dt", "dd", "figure", "figcaption", "table", "dl", "aside", "nav", "address", "center",
  ]
}

/// One pass over the notes, writing what the allow-list keeps.
private struct Reduction {
  let bytes: [UInt8]
  var index = 0
  var out: [UInt8] = []
  /// Kept elements open in the output, innermost last.
  var open: [String] = []
  /// Where each open element's start tag begins in `out`, in the same order.
  var starts: [Int] = []

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    out.reserveCapacity(bytes.count)
  }

  mutating func run() {
    var textStart = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "<") else {
        index += 1
        continue
      }
      let tagStart = index
      guard let tag = readTag() else {
        // Not a tag: the `<` is text.
        index = tagStart + 1
        continue
      }
      writeText(bytes[textStart..<tagStart])
      textStart = index
      switch tag {
      case .ignored:
        break
      case .cdata(let range):
        writeText(bytes[range])
      case .end(let name):
        close(name)
      case .start(let name, let attributes, _):
        if ShowNotesHTML.rawText.contains(name) {
          skipRawText(until: name)
        } else if ShowNotesHTML.droppedWhole.contains(name) {
          skipElement(name)
        } else {
          start(name, attributes: attributes)
        }
        textStart = index
      }
    }
    writeText(bytes[textStart..<bytes.count])
  }

  mutating func finished() -> String {
    while !open.isEmpty { closeLast() }
    return String(decoding: out, as: UTF8.self)
  }

  // MARK: Writing

  mutating func append(_ text: String) { out.append(contentsOf: text.utf8) }

  /// Text between tags: `&` that starts a well-formed character reference stays (the browser
  /// resolves it as text), every other special character is escaped.
  mutating func writeText(_ text: ArraySlice<UInt8>) {
    var position = text.startIndex
    while position < text.endIndex {
      let byte = text[position]
      switch byte {
      case UInt8(ascii: "&"):
        if let end = CharacterReference.end(in: bytes, at: position, limit: text.endIndex) {
          out.append(contentsOf: bytes[position..<end])
          position = end
          continue
        }
        append("&amp;")
      case UInt8(ascii: "<"): append("&lt;")
      case UInt8(ascii: ">"): append("&gt;")
      case UInt8(ascii: "\""): append("&quot;")
      case UInt8(ascii: "'"): append("&#39;")
      case 0..<0x20 where byte != 0x0A && byte != 0x09 && byte != 0x0D: break
      default: out.append(byte)
      }
      position += 1
    }
  }

  mutating func start(_ name: String, attributes: [(name: String, value: [UInt8])]) {
    guard ShowNotesHTML.kept.contains(name) else {
      return
    }
    if name == "br" {
      append("<br>")
      return
    }
    // What the browser would close itself, closed here, so the output nests as written.
    switch name {
    case "p", "ul", "ol", "blockquote", "pre":
      if let last = open.lastIndex(of: "p"), !open[last...].contains(where: isContainer) {
        closeThrough(last)
      }
    case "li":
      if let last = open.lastIndex(of: "li"),
        !open[(last + 1)...].contains(where: { $0 == "ul" || $0 == "ol" })
      {
        closeThrough(last)
      }
    case "a":
      if let last = open.lastIndex(of: "a") { closeThrough(last) }
    default: break
    }
    starts.append(out.count)
    if name == "a" {
      let href = attributes.last { $0.name == "href" }.flatMap { ShowNotesHTML.safeLink($0.value) }
      if let href {
        append(
          "<a href=\"\(ShowNotesHTML.escaped(href))\" rel=\"nofollow noopener noreferrer\">")
      } else {
        append("<a>")
      }
    } else {
      append("<\(name)>")
    }
    open.append(name)
  }

  private func isContainer(_ name: String) -> Bool {
    name == "li" || name == "blockquote"
  }

  mutating func close(_ name: String) {
    if ShowNotesHTML.blocks.contains(name) {
      lineBreak()
      return
    }
    guard ShowNotesHTML.kept.contains(name), let last = open.lastIndex(of: name) else { return }
    closeThrough(last)
  }

  /// A line break after a block that goes, unless the output just ended a line anyway.
  mutating func lineBreak() {
    let endings = ["<br>", "</p>", "</li>", "</ul>", "</ol>", "</blockquote>", "</pre>"]
    if out.isEmpty || endings.contains(where: { out.ends(with: Array($0.utf8)) }) { return }
    if open.last == "ul" || open.last == "ol" { return }
    append("<br>")
  }

  mutating func closeThrough(_ position: Int) {
    while open.count > position { closeLast() }
  }

  /// Closes the innermost open element; a paragraph that holds nothing but line breaks and
  /// spaces (`<p><br></p>`, which editors leave between paragraphs) goes instead.
  mutating func closeLast() {
    guard let name = open.popLast(), let start = starts.popLast() else { return }
    if name == "p" {
      let content = String(decoding: out[(start + 3)...], as: UTF8.self)
      if content.replacingOccurrences(of: "<br>", with: "").allSatisfy(\.isWhitespace) {
        out.removeSubrange(start...)
        return
      }
    }
    append("</\(name)>")
  }

  // MARK: Reading

  enum Tag {
    case start(String, [(name: String, value: [UInt8])], selfClosing: Bool)
    case end(String)
    case cdata(Range<Int>)
    /// A comment, doctype, processing instruction or bogus comment: nothing to write.
    case ignored
  }

  /// The tag at `index` (a `<`), with `index` moved past it; nil when this `<` starts no tag
  /// (the caller writes it as text). A tag cut off by the end of the notes is dropped.
  mutating func readTag() -> Tag? {
    let next = index + 1
    guard next < bytes.count else { return nil }
    let byte = bytes[next]
    if byte == UInt8(ascii: "!") {
      if matches("<!--", at: index) {
        index = find("-->", from: index + 4).map { $0 + 3 } ?? bytes.count
        return .ignored
      }
      if matches("<![CDATA[", at: index) {
        let contentStart = index + 9
        let end = find("]]>", from: contentStart) ?? bytes.count
        index = min(end + 3, bytes.count)
        return .cdata(contentStart..<end)
      }
      index = find(">", from: next).map { $0 + 1 } ?? bytes.count
      return .ignored
    }
    if byte == UInt8(ascii: "?") {
      index = find(">", from: next).map { $0 + 1 } ?? bytes.count
      return .ignored
    }
    if byte == UInt8(ascii: "/") {
      guard next + 1 < bytes.count else { return nil }
      guard bytes[next + 1].isASCIILetter else {
        // `</ ...>` and `</>`: a bogus comment to the browser.
        index = find(">", from: next).map { $0 + 1 } ?? bytes.count
        return .ignored
      }
      index = next + 1
      let name = readName()
      // Attributes on an end tag mean nothing; skip to its end.
      guard readAttributes() != nil else { return .ignored }
      return .end(name)
    }
    guard byte.isASCIILetter else { return nil }
    index = next
    let name = readName()
    guard let (attributes, selfClosing) = readAttributes() else { return .ignored }
    return .start(name, attributes, selfClosing: selfClosing)
  }

  /// A tag name, lower-cased, ending at space, `/` or `>`.
  mutating func readName() -> String {
    let start = index
    while index < bytes.count, !bytes[index].isTagSpace, bytes[index] != UInt8(ascii: "/"),
      bytes[index] != UInt8(ascii: ">")
    {
      index += 1
    }
    return String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
  }

  /// Attributes up to and past the tag's `>` (the end of the notes if there is none), as the
  /// HTML tokenizer reads them: names end at space, `/`, `>` or `=`; values are quoted or end
  /// at space or `>`. Nil for a tag cut off by the end of the notes, which the browser drops.
  mutating func readAttributes() -> ([(name: String, value: [UInt8])], Bool)? {
    var attributes: [(name: String, value: [UInt8])] = []
    var selfClosing = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte.isTagSpace {
        index += 1
        continue
      }
      if byte == UInt8(ascii: ">") {
        index += 1
        return (attributes, selfClosing)
      }
      if byte == UInt8(ascii: "/") {
        selfClosing = true
        index += 1
        continue
      }
      selfClosing = false
      let nameStart = index
      index += 1
      while index < bytes.count, !bytes[index].isTagSpace,
        ![UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "=")].contains(bytes[index])
      {
        index += 1
      }
      let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
      while index < bytes.count, bytes[index].isTagSpace { index += 1 }
      var value: [UInt8] = []
      if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
        index += 1
        while index < bytes.count, bytes[index].isTagSpace { index += 1 }
        if index < bytes.count,
          bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
        {
          let quote = bytes[index]
          let valueStart = index + 1
          let end = bytes[valueStart...].firstIndex(of: quote) ?? bytes.count
          value = Array(bytes[valueStart..<end])
          index = min(end + 1, bytes.count)
        } else {
          let valueStart = index
          while index < bytes.count, !bytes[index].isTagSpace, bytes[index] != UInt8(ascii: ">") {
            index += 1
          }
          value = Array(bytes[valueStart..<index])
        }
      }
      attributes.append((name, value))
    }
    return nil
  }

  /// Past the end tag of a raw-text element (`</script` up to its `>`), or to the end.
  mutating func skipRawText(until name: String) {
    let closing = Array(("</" + name).utf8)
    var position = index
    while position < bytes.count {
      if bytes[position] == UInt8(ascii: "<"), matchesIgnoringCase(closing, at: position) {
        let after = position + closing.count
        if after >= bytes.count || bytes[after].isTagSpace || bytes[after] == UInt8(ascii: ">")
          || bytes[after] == UInt8(ascii: "/")
        {
          index = find(">", from: after).map { $0 + 1 } ?? bytes.count
          return
        }
      }
      position += 1
    }
    index = bytes.count
  }

  /// Past the end of an element dropped whole (`svg`, `object`...), counting the same
  /// element nested inside it; raw-text elements inside are skipped as such.
  mutating func skipElement(_ name: String) {
    var depth = 1
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "<") else {
        index += 1
        continue
      }
      let tagStart = index
      guard let tag = readTag() else {
        index = tagStart + 1
        continue
      }
      switch tag {
      case .start(let inner, _, let selfClosing):
        if ShowNotesHTML.rawText.contains(inner) {
          skipRawText(until: inner)
        } else if inner == name && !selfClosing {
          depth += 1
        }
      case .end(let inner) where inner == name:
        depth -= 1
        if depth == 0 { return }
      default: break
      }
    }
  }

  func matches(_ text: String, at position: Int) -> Bool {
    let pattern = Array(text.utf8)
    guard position + pattern.count <= bytes.count else { return false }
    return bytes[position..<position + pattern.count].elementsEqual(pattern)
  }

  func matchesIgnoringCase(_ pattern: [UInt8], at position: Int) -> Bool {
    guard position + pattern.count <= bytes.count else { return false }
    return zip(bytes[position..<position + pattern.count], pattern).allSatisfy {
      $0.asciiLowercased == $1.asciiLowercased
    }
  }

  func find(_ text: String, from start: Int) -> Int? {
    let pattern = Array(text.utf8)
    guard let first = pattern.first, start < bytes.count else { return nil }
    var position = start
    while position + pattern.count <= bytes.count {
      if bytes[position] == first,
        bytes[position..<position + pattern.count].elementsEqual(pattern)
      {
        return position
      }
      position += 1
    }
    return nil
  }
}

/// HTML character references (`&amp;`, `&#58;`, `&#x3A;`), as far as the allow-list needs
/// them: recognising one in text, and resolving a link's value to check its scheme.
enum CharacterReference {
  /// The few named references a link needs resolved (a scheme can hide behind `&colon;`).
  static let named: [String: String] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "colon": ":", "tab": "\t",
    "newline": "\n", "sol": "/", "period": ".", "quest": "?", "equals": "=", "num": "#",
    "percnt": "%", "nbsp": "\u{A0}", "lpar": "(", "rpar": ")", "comma": ",", "semi": ";",
    "plus": "+", "commat": "@", "lowbar": "_", "hyphen": "-", "dash": "-",
  ]

  /// Where the well-formed reference starting at `position` (an `&`) ends, past its `;`;
  /// nil when there is none (`&` alone, `& `, `&name` without `;`).
  static func end(in bytes: [UInt8], at position: Int, limit: Int) -> Int? {
    var cursor = position + 1
    guard cursor < limit else { return nil }
    if bytes[cursor] == UInt8(ascii: "#") {
      cursor += 1
      var hex = false
      if cursor < limit, bytes[cursor] == UInt8(ascii: "x") || bytes[cursor] == UInt8(ascii: "X") {
        hex = true
        cursor += 1
      }
      let digitsStart = cursor
      while cursor < limit, cursor - digitsStart < 8,
        hex ? bytes[cursor].isASCIIHexDigit : bytes[cursor].isASCIIDigit
      {
        cursor += 1
      }
      guard cursor > digitsStart, cursor < limit, bytes[cursor] == UInt8(ascii: ";") else {
        return nil
      }
      return cursor + 1
    }
    let nameStart = cursor
    while cursor < limit, cursor - nameStart < 32,
      bytes[cursor].isASCIILetter || bytes[cursor].isASCIIDigit
    {
      cursor += 1
    }
    guard cursor > nameStart, cursor < limit, bytes[cursor] == UInt8(ascii: ";") else {
      return nil
    }
    return cursor + 1
  }

  /// `raw` with every reference resolved; nil when one cannot be (a named reference not in
  /// `named`, or a number that is no character). A browser also resolves references without
  /// their `;`: those count as unresolvable too, so nothing slips through as text.
  static func decodeAll(_ raw: [UInt8]) -> String? {
    var out = ""
    var position = 0
    var plainStart = 0
    while position < raw.count {
      guard raw[position] == UInt8(ascii: "&") else {
        position += 1
        continue
      }
      out += String(decoding: raw[plainStart..<position], as: UTF8.self)
      guard let end = end(in: raw, at: position, limit: raw.count) else {
        // A bare `&` followed by a letter or `#` may still be read as a reference.
        if position + 1 < raw.count,
          raw[position + 1].isASCIILetter || raw[position + 1] == UInt8(ascii: "#")
        {
          return nil
        }
        out += "&"
        position += 1
        plainStart = position
        continue
      }
      let body = String(decoding: raw[(position + 1)..<(end - 1)], as: UTF8.self)
      if body.hasPrefix("#") {
        let digits = body.dropFirst()
        let value =
          digits.first == "x" || digits.first == "X"
          ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let value, let scalar = Unicode.Scalar(value) else { return nil }
        out.unicodeScalars.append(scalar)
      } else {
        guard let resolved = named[body.lowercased()] else { return nil }
        out += resolved
      }
      position = end
      plainStart = position
    }
    out += String(decoding: raw[plainStart..<raw.count], as: UTF8.self)
    return out
  }
}

extension UInt8 {
  fileprivate var isASCIILetter: Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(asciiLowercased)
  }
  fileprivate var isASCIIDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
  fileprivate var isTagSpace: Bool {
    self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D
  }
  fileprivate var isASCIIHexDigit: Bool {
    isASCIIDigit || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
  }
}

extension Substring {
  fileprivate var trimmingWhitespaceTail: Substring {
    var end = endIndex
    while end > startIndex, self[index(before: end)].isWhitespace { end = index(before: end) }
    return self[startIndex..<end]
  }
}
