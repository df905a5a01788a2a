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
      ([columns[index].title] + rows.map { $0[index] }).map(TerminalText.width).max() ?? 0
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
      let text = TerminalText.truncated(cell, to: widths[index])
      let padding = String(repeating: " ", count: max(0, widths[index] - TerminalText.width(text)))
      switch columns[index].alignment {
      case .left: parts.append(isLast ? text : text + padding)
      case .right: parts.append(padding + text)
      }
    }
    return parts.joined(separator: "  ")
  }
}
