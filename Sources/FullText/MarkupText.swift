/// HTML as text to search and quote: show notes (feeds carry HTML) and HTML transcripts.
/// Tags become nothing, block ends line breaks, `<script>` and `<style>` go with their
/// content, entities are decoded, control characters dropped and runs of white space one
/// space. Text that is not HTML (no tag in it) keeps its own line breaks.
///
/// Works on the UTF-8 bytes as the feed parser hands them over: a sync reads every new
/// episode's notes through here, a few hundred kB per feed.
public enum MarkupText {
  /// At most about `limit` bytes of text (cut at a character's boundary).
  public static func text(utf8 input: UnsafeBufferPointer<UInt8>, limit: Int = 1 << 20) -> String {
    var reader = Reader(input: input, limit: limit)
    reader.run()
    return String(decoding: reader.out, as: UTF8.self)
  }

  public static func text(_ html: String, limit: Int = 1 << 20) -> String {
    var html = html
    return html.withUTF8 { text(utf8: $0, limit: limit) }
  }

  /// Whether `text` holds a tag (`<` followed by a letter, `/` or `!`).
  public static func hasTags(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { Reader.looksLikeHTML($0) }
  }

  private struct Reader {
    let input: UnsafeBufferPointer<UInt8>
    let limit: Int
    var out: [UInt8] = []
    var pendingSpace = false
    var pendingLine = false
    let isHTML: Bool

    init(input: UnsafeBufferPointer<UInt8>, limit: Int) {
      self.input = input
      self.limit = limit
      out.reserveCapacity(min(input.count, limit))
      isHTML = Self.looksLikeHTML(input)
    }

    /// A `<` followed by a letter, `/` or `!`: one tag makes the whole text markup.
    static func looksLikeHTML(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
      var index = 0
      while index + 1 < input.count {
        if input[index] == 0x3C && Self.startsTag(input[index + 1]) { return true }
        index += 1
      }
      return false
    }

    private static func startsTag(_ byte: UInt8) -> Bool {
      (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x2F || byte == 0x21
    }

    mutating func run() {
      var index = 0
      let count = input.count
      while index < count && out.count < limit {
        let byte = input[index]
        switch byte {
        case 0x3C where isHTML && index + 1 < count && Self.startsTag(input[index + 1]):
          index = tag(at: index)
        case 0x26:
          index = entity(at: index)
        case 0x0A, 0x0D:
          if isHTML { pendingSpace = true } else { pendingLine = true }
          index += 1
        case 0x09, 0x0B, 0x0C, 0x20:
          pendingSpace = true
          index += 1
        case 0x00...0x1F, 0x7F:
          index += 1
        case 0xC2 where index + 1 < count && input[index + 1] >= 0x80 && input[index + 1] <= 0xA0:
          // U+0080-U+009F (controls) and U+00A0 (no-break space).
          if input[index + 1] == 0xA0 { pendingSpace = true }
          index += 2
        default:
          // A character's lead byte settles what is pending; its continuation bytes follow.
          if byte < 0x80 || byte >= 0xC0 {
            guard out.count < limit - 4 || byte < 0x80 else { return }
            flushPending()
          }
          out.append(byte)
          index += 1
        }
      }
    }

    private mutating func flushPending() {
      if !out.isEmpty {
        if pendingLine {
          out.append(0x0A)
        } else if pendingSpace {
          out.append(0x20)
        }
      }
      pendingSpace = false
      pendingLine = false
    }

    private mutating func emit(scalar: Unicode.Scalar) {
      switch scalar.value {
      case 0x0A: pendingLine = true
      case 0x09, 0x20, 0xA0, 0x2002, 0x2003, 0x2009: pendingSpace = true
      case 0x00...0x1F, 0x7F...0x9F, 0xAD, 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069:
        break
      default:
        flushPending()
        out.append(contentsOf: String(scalar).utf8)
      }
    }

    /// Past the tag at `start` (or past a `<` that opens none); a block's end is a line break.
    private mutating func tag(at start: Int) -> Int {
      let count = input.count
      if start + 3 < count && input[start + 1] == 0x21 && input[start + 2] == 0x2D
        && input[start + 3] == 0x2D
      {
        // A comment runs to "-->".
        var index = start + 4
        while index + 2 < count {
          if input[index] == 0x2D && input[index + 1] == 0x2D && input[index + 2] == 0x3E {
            return index + 3
          }
          index += 1
        }
        return count
      }
      var end = start + 1
      while end < count && input[end] != 0x3E { end += 1 }
      guard end < count else {
        // No end: the `<` was text after all.
        flushPending()
        out.append(0x3C)
        return start + 1
      }
      var nameStart = start + 1
      let closing = input[nameStart] == 0x2F
      if closing { nameStart += 1 }
      var nameEnd = nameStart
      while nameEnd < end && Self.isNameByte(input[nameEnd]) { nameEnd += 1 }
      let name = String(
        decoding: UnsafeBufferPointer(rebasing: input[nameStart..<nameEnd]), as: UTF8.self
      )
      .lowercased()
      if !closing && (name == "script" || name == "style") {
        return skip(until: "</" + name, from: end + 1)
      }
      if Self.blockTags.contains(name) {
        pendingLine = true
      }
      return end + 1
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
      (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte >= 0x30 && byte <= 0x39
    }

    /// Past the first `marker` (any case) from `start`, and past its `>`.
    private func skip(until marker: String, from start: Int) -> Int {
      let pattern = Array(marker.utf8)
      let count = input.count
      var index = start
      while index + pattern.count <= count {
        var matches = true
        for offset in 0..<pattern.count where input[index + offset] | 0x20 != pattern[offset] | 0x20
        {
          matches = false
          break
        }
        if matches {
          var end = index + pattern.count
          while end < count && input[end] != 0x3E { end += 1 }
          return min(count, end + 1)
        }
        index += 1
      }
      return count
    }

    /// Past the entity at `start` (its character written), or past the `&` when it is none.
    private mutating func entity(at start: Int) -> Int {
      let count = input.count
      var end = start + 1
      while end < count && end - start <= 12 && input[end] != 0x3B
        && (Self.isNameByte(input[end]) || input[end] == 0x23)
      {
        end += 1
      }
      if end < count && input[end] == 0x3B && end > start + 1 {
        let body = String(
          decoding: UnsafeBufferPointer(rebasing: input[(start + 1)..<end]), as: UTF8.self)
        if let scalar = Self.decode(body) {
          emit(scalar: scalar)
          return end + 1
        }
      }
      flushPending()
      out.append(0x26)
      return start + 1
    }

    private static func decode(_ body: String) -> Unicode.Scalar? {
      if body.hasPrefix("#x") || body.hasPrefix("#X") {
        return UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
      }
      if body.hasPrefix("#") {
        return UInt32(body.dropFirst()).flatMap(Unicode.Scalar.init)
      }
      return named[body]
    }

    private static let blockTags: Set<String> = [
      "br", "p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th",
      "blockquote", "table", "section", "article", "header", "footer", "hr", "dd", "dt", "pre",
      "figcaption",
    ]

    /// HTML's common named entities, with every Latin-1 letter (accents are searched for).
    private static let named: [String: Unicode.Scalar] = {
      var table: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "hellip": "…", "mdash": "—", "ndash": "–", "rsquo": "’", "lsquo": "‘", "rdquo": "”",
        "ldquo": "“", "sbquo": "‚", "bdquo": "„", "laquo": "«", "raquo": "»", "copy": "©",
        "reg": "®", "trade": "™", "euro": "€", "pound": "£", "yen": "¥", "cent": "¢", "sect": "§",
        "deg": "°", "plusmn": "±", "middot": "·", "bull": "•", "shy": "\u{AD}",
        "ensp": "\u{2002}", "emsp": "\u{2003}", "thinsp": "\u{2009}", "zwnj": "\u{200C}",
        "zwj": "\u{200D}", "lrm": "\u{200E}", "rlm": "\u{200F}", "OElig": "Œ", "oelig": "œ",
        "Scaron": "Š", "scaron": "š", "Yuml": "Ÿ", "iexcl": "¡", "iquest": "¿",
      ]
      let latin1 = [
        "Agrave", "Aacute", "Acirc", "Atilde", "Auml", "Aring", "AElig", "Ccedil", "Egrave",
        "Eacute", "Ecirc", "Euml", "Igrave", "Iacute", "Icirc", "Iuml", "ETH", "Ntilde", "Ograve",
        "Oacute", "Ocirc", "Otilde", "Ouml", "times", "Oslash", "Ugrave", "Uacute", "Ucirc",
        "Uuml", "Yacute", "THORN", "szlig", "agrave", "aacute", "acirc", "atilde", "auml",
        "aring", "aelig", "ccedil", "egrave", "eacute", "ecirc", "euml", "igrave", "iacute",
        "icirc", "iuml", "eth", "ntilde", "ograve", "oacute", "ocirc", "otilde", "ouml",
        "divide", "oslash", "ugrave", "uacute", "ucirc", "uuml", "yacute", "thorn", "yuml",
      ]
      for (offset, name) in latin1.enumerated() {
        if let scalar = Unicode.Scalar(0xC0 + UInt32(offset)) { table[name] = scalar }
      }
      return table
    }()
  }
}
