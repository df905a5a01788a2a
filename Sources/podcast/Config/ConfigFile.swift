import Foundation

/// `$XDG_CONFIG_HOME/podcast/config.toml` (else `~/.config/podcast/config.toml`): the library
/// path and defaults for any option. Flags beat the environment, which beats the file.
///
/// Top-level keys apply to every command that takes them; keys under `[download]`, `[sync]`...
/// apply to that command only, and beat the top-level ones. Every key and value is checked
/// when the file is read, so a typo is one line naming the file, the line and the key, whatever
/// command is run.
struct ConfigFile {
  let path: String
  private let entries: [TOMLSubset.Entry]

  /// The subcommands, so a new one gets its `[section]` without a second list to keep.
  static let commands = Swift.Set(
    PodcastCommand.configuration.subcommands.map { $0.configuration.commandName ?? "" })

  /// The file for this environment; nil when there is none.
  static func load(environment: [String: String]) throws -> ConfigFile? {
    let path = location(environment: environment)
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ConfigError(path: path, reason: "cannot read it")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ConfigError(path: path, reason: "not UTF-8 text")
    }
    let document: TOMLSubset
    do {
      document = try TOMLSubset(parsing: text)
    } catch let error as TOMLSubset.SyntaxError {
      throw ConfigError(path: path, line: error.line, reason: error.reason)
    }
    let file = ConfigFile(path: path, entries: document.entries)
    try file.check()
    return file
  }

  static func location(environment: [String: String]) -> String {
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
      return xdg + "/podcast/config.toml"
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? LibraryOptions.homeDirectory
    return home + "/.config/podcast/config.toml"
  }

  /// A top-level `library`, `episodes-dir` or `timeout` value, as text.
  func libraryValue(_ key: String) -> String? {
    guard let entry = entries.first(where: { $0.section == nil && $0.key == key }) else {
      return nil
    }
    switch entry.value {
    case .string(let text): return Self.expandingTilde(text)
    case .integer(let number): return String(number)
    case .boolean(let flag): return String(flag)
    case .strings(let list): return list.joined(separator: ",")
    }
  }

  /// The words to add to `command`'s arguments for the options the user did not give.
  func arguments(for command: String, given: [String]) -> [String] {
    var words: [String] = []
    for (key, entry) in entries(for: command).sorted(by: { $0.key < $1.key })
    where !Self.gives(key, given) {
      words += (try? ConfigOption.all[key]?.arguments(key, entry.value)) ?? []
    }
    return words
  }

  /// The text `key` has for `command` (its own section beats the top level); nil for none.
  func text(of key: String, for command: String) -> String? {
    guard case .string(let text)? = entries(for: command)[key]?.value else { return nil }
    return text
  }

  /// The strings `key` has for `command` (its own section beats the top level); nil for none.
  func strings(of key: String, for command: String) -> [String]? {
    guard case .strings(let list)? = entries(for: command)[key]?.value else { return nil }
    return list
  }

  /// The integer `key` has for `command` (its own section beats the top level); nil for none.
  func integer(of key: String, for command: String) -> Int? {
    guard case .integer(let number)? = entries(for: command)[key]?.value else { return nil }
    return number
  }

  /// The entries that apply to `command`, one per key: its own section beats the top level.
  private func entries(for command: String) -> [String: TOMLSubset.Entry] {
    var chosen: [String: TOMLSubset.Entry] = [:]
    for entry in entries where ConfigOption.all[entry.key]?.commands.contains(command) == true {
      if entry.section == command || (entry.section == nil && chosen[entry.key] == nil) {
        chosen[entry.key] = entry
      }
    }
    return chosen
  }

  private static func gives(_ key: String, _ arguments: [String]) -> Bool {
    let flag = "--" + key
    let negated = "--no-" + key
    return arguments.contains { $0 == flag || $0.hasPrefix(flag + "=") || $0 == negated }
  }

  private func check() throws {
    for entry in entries {
      func fail(_ reason: String) -> ConfigError {
        ConfigError(path: path, line: entry.line, key: entry.key, reason: reason)
      }
      if let section = entry.section, !Self.commands.contains(section) {
        throw ConfigError(
          path: path, line: entry.line, key: "[\(section)]",
          reason: "not a podcast command")
      }
      guard let option = ConfigOption.all[entry.key] else { throw fail("not a setting") }
      if ConfigOption.libraryKeys.contains(entry.key) {
        if entry.section != nil { throw fail("belongs at the top of the file, not in a section") }
        try checkLibraryValue(entry, fail: fail)
        continue
      }
      if let section = entry.section, !option.commands.contains(section) {
        throw fail("podcast \(section) has no such option")
      }
      do {
        _ = try option.arguments(entry.key, entry.value)
      } catch {
        throw fail(String(describing: error))
      }
    }
  }

  private func checkLibraryValue(
    _ entry: TOMLSubset.Entry, fail: (String) -> ConfigError
  ) throws {
    switch (entry.key, entry.value) {
    case ("timeout", .integer(let seconds)) where seconds > 0: return
    case ("timeout", _): throw fail("the value must be a positive number of seconds")
    case (_, .string(let text)) where !text.isEmpty: return
    default: throw fail("the value must be a \"path\"")
    }
  }

  private static func expandingTilde(_ path: String) -> String {
    path == "~" || path.hasPrefix("~/")
      ? LibraryOptions.homeDirectory + path.dropFirst() : path
  }
}
