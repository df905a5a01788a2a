import Foundation

/// `~/.netrc`, as curl reads it for private feeds: `machine HOST login USER password PASS`
/// (any order, any whitespace), and `default` for any host. `macdef` bodies are skipped.
public enum Netrc {
  /// The password for `user` at `host`: the first entry for the host (else `default`) whose
  /// login is `user`, or that names no login.
  public static func password(host: String, user: String, home: String? = nil) -> String? {
    let folder = home ?? ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
    guard let text = try? String(contentsOfFile: folder + "/.netrc", encoding: .utf8) else {
      return nil
    }
    return password(in: text, host: host, user: user)
  }

  public static func password(in text: String, host: String, user: String) -> String? {
    var entries: [(machine: String?, login: String?, password: String?)] = []
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
    var tokens: [Substring] = []
    while let line = lines.popFirst() {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      if words.first == "macdef" {
        // A macro runs to the next empty line.
        while let body = lines.popFirst(), !body.trimmingCharacters(in: .whitespaces).isEmpty {}
        continue
      }
      tokens += words
    }
    var index = 0
    while index < tokens.count {
      let word = tokens[index]
      let value = index + 1 < tokens.count ? String(tokens[index + 1]) : nil
      switch word {
      case "machine":
        entries.append((value, nil, nil))
        index += 2
      case "default":
        entries.append(("", nil, nil))
        index += 1
      case "login":
        if !entries.isEmpty { entries[entries.count - 1].login = value }
        index += 2
      case "password":
        if !entries.isEmpty { entries[entries.count - 1].password = value }
        index += 2
      case "account":
        index += 2
      default:
        index += 1
      }
    }
    let lowered = host.lowercased()
    let matching =
      entries.filter { $0.machine?.lowercased() == lowered }
      + entries.filter { $0.machine == "" }
    return matching.first { $0.login == nil || $0.login == user }?.password
  }
}
