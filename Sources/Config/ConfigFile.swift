import Foundation

/// `$XDG_CONFIG_HOME/podcast/config.toml` (else `~/.config/podcast/config.toml`): the library
/// path and defaults for options. Flags beat the environment, which beats the file.
///
/// Top-level keys apply to every command that takes them; keys under `[download]`, `[sync]`...
/// apply to that command only, and beat the top-level ones. Every key and value is checked
/// when the file is read, so a typo is one line naming the file, the line and the key, whatever
/// command is run.
public struct ConfigFile: Sendable {
  public let path: String
  private let entries: [TOMLDocument.Entry]
  /// For `~/` in the library's paths.
  private let home: String

  /// Every key a file may set, for documentation and its tests.
  public static var keys: [String] { ConfigKey.all.keys.sorted() }

  /// The commands a `[section]` may name, and the keys each of them takes.
  public static func keys(for command: String) -> [String] {
    ConfigKey.all.filter { $0.value.commands.contains(command) }.keys.sorted()
  }

  /// The file for this environment, read and checked; nil when there is none. `commands`
  /// are the names a `[section]` may have.
  public static func load(environment: [String: String], commands: Swift.Set<String>)
    throws(ConfigError) -> ConfigFile?
  {
    let path = location(environment: environment)
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .unreadable(path: path)
    }
    guard let text = String(data: data, encoding: .utf8) else { throw .notText(path: path) }
    return try ConfigFile(
      path: path, text: text, commands: commands, home: home(environment: environment))
  }

  /// `text` read as the file at `path`, and checked: throws the first line that is wrong.
  public init(path: String, text: String, commands: Swift.Set<String>, home: String)
    throws(ConfigError)
  {
    let document: TOMLDocument
    do {
      document = try TOMLDocument(parsing: text)
    } catch {
      throw .syntax(path: path, line: error.line, reason: error.reason)
    }
    self.path = path
    self.entries = document.entries
    self.home = home
    try check(commands: commands)
  }

  public static func location(environment: [String: String]) -> String {
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
      return xdg + "/podcast/config.toml"
    }
    return home(environment: environment) + "/.config/podcast/config.toml"
  }

  /// `$HOME` as every Unix tool reads it; the password database only when it is unset
  /// (Foundation's `homeDirectoryForCurrentUser` ignores `$HOME`).
  public static func home(environment: [String: String]) -> String {
    if let home = environment["HOME"], !home.isEmpty { return home }
    return FileManager.default.homeDirectoryForCurrentUser.path
  }

  /// A top-level key the library reads itself, as text: `library` or `episodes-dir` (`~/`
  /// expanded), `timeout` in seconds, `podcastindex-key` or `podcastindex-secret` as written;
  /// nil when the file does not set it.
  public func libraryValue(_ key: String) -> String? {
    guard let entry = entries.first(where: { $0.section == nil && $0.key == key }) else {
      return nil
    }
    switch ConfigKey.all[key]?.kind {
    case .seconds?: return entry.value.number.map(String.init)
    case .path?: return entry.value.text.map(expandingTilde)
    default: return entry.value.text
    }
  }

  /// The strings `key` has for `command` (its own section beats the top level): a list such
  /// as `directories`; nil when the file does not set it.
  public func strings(of key: String, for command: String) -> [String]? {
    guard case .strings(let list)? = entries(for: command)[key]?.value else { return nil }
    return list
  }

  /// The words to add to `command`'s arguments for the options the user did not give.
  public func arguments(for command: String, given: [String]) -> [String] {
    var words: [String] = []
    for (key, entry) in entries(for: command).sorted(by: { $0.key < $1.key })
    where !Self.gives(key, given) {
      words += (try? ConfigKey.all[key]?.arguments(key, entry.value)) ?? []
    }
    return words
  }

  /// The text `key` gives `command`'s flag (its own section beats the top level): a string
  /// as it is, a number in decimal; nil when the file does not set it.
  public func text(of key: String, for command: String) -> String? {
    entries(for: command)[key]?.value.text
  }

  /// The number `key` has for `command` (its own section beats the top level), written as
  /// a number or as a string holding one; nil when the file does not set it.
  public func number(of key: String, for command: String) -> Int? {
    entries(for: command)[key]?.value.number
  }

  /// The entries that apply to `command`, one per key: its own section beats the top level.
  private func entries(for command: String) -> [String: TOMLDocument.Entry] {
    var chosen: [String: TOMLDocument.Entry] = [:]
    for entry in entries where ConfigKey.all[entry.key]?.commands.contains(command) == true {
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

  private func check(commands: Swift.Set<String>) throws(ConfigError) {
    for entry in entries {
      func fail(_ reason: String) -> ConfigError {
        .badEntry(path: path, line: entry.line, key: entry.key, reason: reason)
      }
      if let section = entry.section, !commands.contains(section) {
        throw .badEntry(
          path: path, line: entry.line, key: "[\(section)]", reason: "not a podcast command")
      }
      guard let key = ConfigKey.all[entry.key] else { throw fail("not a setting") }
      if let section = entry.section {
        if ConfigKey.libraryKeys.contains(entry.key) {
          throw fail("belongs at the top of the file, not in a section")
        }
        if !key.commands.contains(section) { throw fail("podcast \(section) has no such option") }
      }
      do {
        _ = try key.arguments(entry.key, entry.value)
      } catch {
        throw fail(error.description)
      }
    }
  }

  private func expandingTilde(_ path: String) -> String {
    path == "~" || path.hasPrefix("~/") ? home + path.dropFirst() : path
  }
}
