/// `--library DIR` and `--episodes-dir DIR` may stand before or after the command name (README,
/// "Episodes and downloads"). argument-parser takes a subcommand's options only after its name,
/// so they move after the whole command path: `podcast --library L account add URL` is parsed
/// as `podcast account add --library L URL`. `help` takes command names only: there they are
/// dropped, as they change nothing about the help.
struct ArgumentOrder: Sendable {
  static let globalOptionsWithValue: Set<String> = ["--library", "--episodes-dir"]

  /// The subcommand names of the command at `path` (`[]` is the program itself).
  let subcommands: @Sendable (_ path: [String]) -> Set<String>

  func arranged(_ argv: [String]) -> [String] {
    guard let program = argv.first else { return argv }
    var path: [String] = []
    var moved: [String] = []
    var index = 1
    while index < argv.count {
      let word = argv[index]
      let name = String(word.split(separator: "=", maxSplits: 1).first ?? "")
      if Self.globalOptionsWithValue.contains(name) {
        let takesNext = !word.contains("=") && index + 1 < argv.count
        moved += argv[index...(takesNext ? index + 1 : index)]
        index += takesNext ? 2 : 1
      } else if subcommands(path).contains(word) {
        path.append(word)
        index += 1
      } else {
        break
      }
    }
    let rest = argv[index...]
    if path.first == "help" { return [program] + path + rest }
    guard !path.isEmpty else { return argv }
    return [program] + path + moved + rest
  }
}

extension ArgumentOrder {
  /// This program's commands.
  static let podcast = ArgumentOrder { path in
    guard let command = PodcastCommand.command(at: path) else { return [] }
    let names = command.configuration.subcommands.compactMap { $0.configuration.commandName }
    // argument-parser's own `help` (`podcast help sync`) stands beside the top's commands.
    return Set(names + (path.isEmpty ? ["help"] : []))
  }
}
