/// Fitting text into terminal columns. East Asian wide characters and most emoji take two
/// columns; a grapheme cluster (a letter with its combining marks) takes the width of its base.
enum TerminalText {
  /// `text` without what a terminal would act on instead of show: escape sequences (colours,
  /// cursor moves, title changes), other control characters, and the bidirectional overrides
  /// and isolates (U+202A-202E, U+2066-2069) that make a line read differently from its bytes.
  /// Every feed-provided string goes through here before it reaches the terminal.
  static func safe(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      switch scalar.value {
      case 0x1B, 0x9B, 0x9D:
        skipEscapeSequence(after: scalar, in: &scalars)
      case 0x09, 0x0A: out.append(scalar)
      case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: continue
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// CSI (`ESC [` or U+009B) runs to a final byte in @...~; OSC (`ESC ]` or U+009D) to BEL or
  /// `ESC \`; any other escape is two characters.
  private static func skipEscapeSequence(
    after introducer: Unicode.Scalar, in scalars: inout String.UnicodeScalarView.Iterator
  ) {
    var kind = introducer.value
    if kind == 0x1B {
      guard let next = scalars.next() else { return }
      switch next {
      case "[": kind = 0x9B
      case "]": kind = 0x9D
      default: return
      }
    }
    while let scalar = scalars.next() {
      if kind == 0x9B, (0x40...0x7E).contains(scalar.value) { return }
      if kind == 0x9D, scalar.value == 0x07 || scalar.value == 0x9C { return }
      if kind == 0x9D, scalar.value == 0x1B {
        _ = scalars.next()
        return
      }
    }
  }

  static func width(_ text: String) -> Int {
    text.reduce(0) { $0 + width(of: $1) }
  }

  /// `text` cut to at most `columns` columns, ending in "…" when something was cut.
  static func truncated(_ text: String, to columns: Int) -> String {
    let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    guard width(flat) > columns else { return flat }
    guard columns > 0 else { return "" }
    var out = ""
    var used = 0
    for character in flat {
      let next = width(of: character)
      if used + next > columns - 1 { break }
      out.append(character)
      used += next
    }
    return out + "…"
  }

  /// `text` cut to at most `columns` columns by taking out its middle ("Show 70 - Twi…the
  /// Aesir"): both ends stay, where titles of one show differ ("Part 1", "Part 2").
  static func truncatedInMiddle(_ text: String, to columns: Int) -> String {
    let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    guard width(flat) > columns else { return flat }
    guard columns > 2 else { return truncated(flat, to: columns) }
    let characters = Array(flat)
    var head = ""
    var tail = ""
    var used = 0
    var front = 0
    var back = characters.count - 1
    // Alternate ends, the tail a little favoured: an episode's distinguishing part is more
    // often at its end than at its start.
    var fromBack = true
    while front <= back {
      let next = fromBack ? characters[back] : characters[front]
      if used + width(of: next) > columns - 1 { break }
      used += width(of: next)
      if fromBack {
        tail = String(next) + tail
        back -= 1
      } else {
        head.append(next)
        front += 1
      }
      fromBack.toggle()
    }
    return head.trimmingCharacters(in: .whitespaces) + "…"
      + tail.trimmingCharacters(in: .whitespaces)
  }

  static func padded(_ text: String, to columns: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, columns - width(text)))
    return right ? padding + text : text + padding
  }

  private static func width(of character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 0 }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }
}
