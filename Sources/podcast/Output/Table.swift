/// A plain-text table that fits the terminal: fixed columns keep their width, the one flexible
/// column (usually the title) takes what is left and is cut with an ellipsis.
struct Table {
  enum Alignment { case left, right }

  struct Column {
    var title: String
    var alignment: Alignment = .left
    var flexible = false
  }

  var columns: [Column]
  var rows: [[String]] = []

  func render(width: Int) -> [String] {
    var widths = columns.indices.map { index in
      ([columns[index].title] + rows.map { $0[index] }).map(TextWidth.of).max() ?? 0
    }
    if let flexible = columns.firstIndex(where: \.flexible) {
      let others = widths.enumerated().filter { $0.offset != flexible }.map(\.element).reduce(0, +)
      let available = width - others - 2 * (columns.count - 1)
      widths[flexible] = max(10, min(widths[flexible], available))
    }
    let header = line(columns.map(\.title), widths: widths)
    return [header] + rows.map { line($0, widths: widths) }
  }

  private func line(_ cells: [String], widths: [Int]) -> String {
    var parts: [String] = []
    for (index, cell) in cells.enumerated() {
      let isLast = index == cells.count - 1
      let text = TextWidth.truncate(cell, to: widths[index])
      let padding = String(repeating: " ", count: max(0, widths[index] - TextWidth.of(text)))
      switch columns[index].alignment {
      case .left: parts.append(isLast ? text : text + padding)
      case .right: parts.append(padding + text)
      }
    }
    return parts.joined(separator: "  ")
  }
}

/// Column widths of text on a terminal: East Asian wide characters and most emoji take two
/// columns, combining marks and control characters none.
enum TextWidth {
  static func of(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
  }

  static func truncate(_ text: String, to limit: Int) -> String {
    guard of(text) > limit else { return text }
    var result = ""
    var used = 0
    for character in text {
      let characterWidth = of(String(character))
      if used + characterWidth > limit - 1 { break }
      result.append(character)
      used += characterWidth
    }
    return result + "…"
  }

  private static func width(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
      || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
      || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
      || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1FAFF).contains(value)
      || (0x20000...0x3FFFD).contains(value)
    {
      return 2
    }
    return 1
  }
}
