/// What every text put in the full-text index goes through: titles, show notes, chapters and
/// transcript passages. Nothing in it can be mistaken for the marks a search puts around the
/// words it found (`Highlight`), and nothing a terminal would act on survives.
public enum IndexedText {
  /// `text` without control characters (a tab is a space; a line break stays only with
  /// `keepingLines`), each run of spaces one space, and no space at either end.
  public static func clean(_ text: String, keepingLines: Bool) -> String {
    // Most titles and cues are printable ASCII with single spaces: nothing to do.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) && !text.hasPrefix(" ")
      && !text.hasSuffix(" ") && !text.contains("  ")
    {
      return text
    }
    var out = String.UnicodeScalarView()
    var pendingSpace = false
    var pendingLine = false
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A, 0x0D, 0x2028, 0x2029:
        if keepingLines { pendingLine = true } else { pendingSpace = true }
      case 0x09, 0x0B, 0x0C, 0x20, 0xA0, 0x2000...0x200A, 0x202F, 0x205F, 0x3000:
        pendingSpace = true
      case 0x00...0x1F, 0x7F...0x9F, 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069,
        0xFEFF:
        continue
      default:
        if !out.isEmpty {
          if pendingLine {
            out.append("\n")
          } else if pendingSpace {
            out.append(" ")
          }
        }
        pendingSpace = false
        pendingLine = false
        out.append(scalar)
      }
    }
    return String(out)
  }
}
