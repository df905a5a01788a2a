/// A table cell naming an episode with its show, `Show: Title`, that keeps the rows of one show
/// apart when cut to fit: the show's name gives way first (to a third of the cell), then the
/// title loses its middle, never its distinguishing end.
enum ShowAndTitle {
  private static let separator: Character = "\u{1F}"

  /// The cell for `Table`, with `fitted` as its column's `fit`.
  static func cell(show: String, title: String) -> String {
    show.isEmpty ? title : show + String(separator) + title
  }

  static func fitted(_ cell: String, _ columns: Int) -> String {
    guard let split = cell.firstIndex(of: separator) else {
      return TerminalText.truncatedInMiddle(cell, to: columns)
    }
    let show = String(cell[..<split])
    let title = String(cell[cell.index(after: split)...])
    let whole = show + ": " + title
    guard TerminalText.width(whole) > columns else { return whole }
    let showRoom = max(
      min(TerminalText.width(show), columns / 3),
      columns - 2 - TerminalText.width(title))
    guard showRoom >= 4 else { return TerminalText.truncatedInMiddle(title, to: columns) }
    let shortShow = TerminalText.truncated(show, to: showRoom)
    let titleRoom = columns - 2 - TerminalText.width(shortShow)
    return shortShow + ": " + TerminalText.truncatedInMiddle(title, to: titleRoom)
  }
}
