import Foundation

/// The table of config.toml's keys in README.md ("Defaults in a file"): what a user is told
/// each key is for and which forms its value may take, read so the tests try exactly those.
struct DocumentedKeys {
  struct Row {
    var keys: [String]
    var commands: String
    /// TOML values, as written in the file.
    var values: [String]
  }

  var rows: [Row]

  static func load() throws -> DocumentedKeys {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../README.md").standardizedFileURL
    let text = try String(contentsOf: readme, encoding: .utf8)
    guard let table = text.range(of: "| key | for | value |") else {
      throw DocumentedKeysError(description: "README.md has no table of config keys")
    }
    var rows: [Row] = []
    for line in text[table.upperBound...].split(separator: "\n").dropFirst() {
      guard line.hasPrefix("|") else { break }
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 3 else { continue }
      rows.append(
        Row(keys: quoted(cells[0]), commands: cells[1], values: quoted(cells[2])))
    }
    return DocumentedKeys(rows: rows)
  }

  /// The `code` spans of a cell.
  private static func quoted(_ cell: String) -> [String] {
    cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }
}

struct DocumentedKeysError: Error, CustomStringConvertible {
  var description: String
}
