/// A plain-text table that fits the terminal: fixed columns keep their width, the one flexible
/// column (usually the title) takes what is left and is cut with an ellipsis. When even that
/// leaves the flexible column too little, the columns that may go (`dropOrder`) go, lowest
/// first, so a row never wraps on a narrow terminal.
struct Table {
  enum Alignment { case left, right }

  struct Column {
    var title: String
    var alignment: Alignment = .left
    var flexible = false
    /// Columns that may be left out on a narrow terminal, the lowest number first; nil: kept.
    var dropOrder: Int?
    /// A cell as shown in at most so many columns (`Int.max`: as it is): cut at the end with
    /// an ellipsis, by default.
    var fit: @Sendable (String, Int) -> String = TerminalText.truncated
  }

  var columns: [Column]
  var rows: [[String]] = []
  /// The least the flexible column should get before other columns are dropped for it.
  var flexibleMinimum = 20

  func render(width: Int) -> [String] {
    var kept = Array(columns.indices)
    var widths = columns.indices.map { index in
      ([columns[index].title] + rows.map { columns[index].fit($0[index], .max) })
        .map(TerminalText.width).max() ?? 0
    }
    if let flexible = columns.firstIndex(where: \.flexible) {
      func available() -> Int {
        width - kept.filter { $0 != flexible }.map { widths[$0] }.reduce(0, +) - 2
          * (kept.count - 1)
      }
      let droppable = kept.filter { columns[$0].dropOrder != nil }
        .sorted { columns[$0].dropOrder ?? 0 < columns[$1].dropOrder ?? 0 }
      for index in droppable where available() < min(widths[flexible], flexibleMinimum) {
        kept.removeAll { $0 == index }
      }
      widths[flexible] = max(1, min(widths[flexible], available()))
    }
    let header = line(kept.map { columns[$0].title }, kept, widths: widths)
    return [header] + rows.map { row in line(kept.map { row[$0] }, kept, widths: widths) }
  }

  private func line(_ cells: [String], _ kept: [Int], widths: [Int]) -> String {
    var parts: [String] = []
    for (position, (cell, index)) in zip(cells, kept).enumerated() {
      let isLast = position == cells.count - 1
      let column = columns[index]
      let text = column.fit(cell, widths[index])
      let padding = String(repeating: " ", count: max(0, widths[index] - TerminalText.width(text)))
      switch column.alignment {
      case .left: parts.append(isLast ? text : text + padding)
      case .right: parts.append(padding + text)
      }
    }
    return parts.joined(separator: "  ")
  }
}
