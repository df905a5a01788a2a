import ArgumentParser
import Foundation

/// `podcast sycn`: a word where a command name belongs that is one or two keystrokes from one
/// is a usage error that names the command meant (argument-parser only says the word is
/// unexpected). A word near no command is left to argument-parser.
enum CommandSuggestion {
  /// Exits 64 with the suggestion when `arguments` (as `ArgumentOrder` arranged them) mistype
  /// a command name; returns otherwise.
  static func exitIfMistyped(_ arguments: [String]) {
    var path: [String] = []
    var words = arguments.dropFirst()
    while let word = words.popFirst() {
      // `--library DIR` before a mistyped name stays where it was.
      let option = String(word.split(separator: "=", maxSplits: 1).first ?? "")
      if ArgumentOrder.globalOptionsWithValue.contains(option) {
        if !word.contains("=") { _ = words.popFirst() }
        continue
      }
      guard let command = PodcastCommand.command(at: path), !word.hasPrefix("-") else { return }
      let names = command.configuration.subcommands.compactMap { $0.configuration.commandName }
      if names.contains(word) || (path.isEmpty && word == "help") {
        path.append(word)
        continue
      }
      guard let meant = suggestion(for: word, among: names) else { return }
      let name = (["podcast"] + path).joined(separator: " ")
      Console.write(
        "Error: Unknown command '\(word)'. Did you mean '\(meant)'?\n"
          + "Usage: \(PodcastCommand.usageString(for: command))\n"
          + "  See '\(name) --help' for more information.\n", to: STDERR_FILENO)
      exit(ExitCode.validationFailure.rawValue)
    }
  }

  /// The one name within two edits of `word` (a letter added, dropped, changed or two
  /// swapped), the nearest; nil when none is, or two are equally near.
  static func suggestion(for word: String, among names: [String]) -> String? {
    let ranked = names.map { (name: $0, distance: distance(word.lowercased(), $0)) }
      .filter { $0.distance <= min(2, max(1, $0.name.count / 3)) }
      .sorted { $0.distance < $1.distance }
    guard let best = ranked.first else { return nil }
    return ranked.dropFirst().first?.distance == best.distance ? nil : best.name
  }

  /// Damerau-Levenshtein distance (optimal string alignment).
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { rows[i][0] = i }
    for j in 0...b.count { rows[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
        }
      }
    }
    return rows[a.count][b.count]
  }
}
