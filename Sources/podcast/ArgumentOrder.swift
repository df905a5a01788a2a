/// The contract lets `--library DIR` stand before or after the command name. ArgumentParser
/// only accepts a subcommand's options after its name, so we move them there.
enum ArgumentOrder {
  static let globalOptionsWithValue: Set<String> = ["--library", "--episodes-dir"]

  static func globalOptionsMovedAfterCommand(_ argv: [String]) -> [String] {
    guard let program = argv.first else { return argv }
    var moved: [String] = []
    var rest = Array(argv.dropFirst())
    let index = 0
    while index < rest.count, rest[index].hasPrefix("-") {
      let word = rest[index]
      let name = String(word.split(separator: "=", maxSplits: 1)[0])
      guard globalOptionsWithValue.contains(name) else { break }
      let takesNext = !word.contains("=") && index + 1 < rest.count
      moved.append(contentsOf: rest[index...(takesNext ? index + 1 : index)])
      rest.removeSubrange(index...(takesNext ? index + 1 : index))
    }
    guard !moved.isEmpty, !rest.isEmpty else { return argv }
    return [program, rest[0]] + moved + rest.dropFirst()
  }
}
