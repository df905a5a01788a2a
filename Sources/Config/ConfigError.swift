import Basics

/// A config file that cannot be used, said on one line that names the file, and the line and
/// key where there is one: `config.toml:3: limit-rate: <reason>`.
public enum ConfigError: SentenceError, Equatable {
  case unreadable(path: String)
  case notText(path: String)
  /// A line that is not `key = value`, `[section]` or a comment.
  case syntax(path: String, line: Int, reason: String)
  /// A key that is not a setting, in the wrong place, or with a value its flag would refuse.
  case badEntry(path: String, line: Int, key: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path): return "\(path): cannot read it"
    case .notText(let path): return "\(path): not UTF-8 text"
    case .syntax(let path, let line, let reason): return "\(path):\(line): \(reason)"
    case .badEntry(let path, let line, let key, let reason):
      return "\(path):\(line): \(key): \(reason)"
    }
  }
}
