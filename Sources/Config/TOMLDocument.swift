import Foundation

/// The part of TOML a config file needs: `# comments`, `[section]` headers, and
/// `key = value` lines whose value is a string ("basic" or 'literal'), an integer, a boolean
/// or an array of strings on one line (`["apple", "fyyd"]`). As in TOML, a key set twice in
/// one table and a table opened twice are errors.
///
/// Why not TOMLKit: LebJe/TOMLKit 0.6.0 builds here (18 s in a scratch package), but it gives a
/// position only for syntax errors, not for keys and values, and a bad key or value must be
/// reported as `file:line: key`. This reader keeps every entry's line.
struct TOMLDocument {
  struct Entry: Sendable {
    /// Nil for keys before the first `[section]`.
    var section: String?
    var key: String
    var value: ConfigValue
    var line: Int
  }

  /// Why a line is not TOML this reader takes; `ConfigFile` adds the file.
  struct SyntaxError: Error {
    var line: Int
    var reason: String
  }

  let entries: [Entry]

  init(parsing text: String) throws(SyntaxError) {
    var entries: [Entry] = []
    var section: String?
    var opened: [String: Int] = [:]
    for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let line = offset + 1
      let content = Self.withoutComment(Substring(raw)).trimmingCharacters(in: .whitespaces)
      if content.isEmpty { continue }
      if content.hasPrefix("[") {
        guard content.hasSuffix("]"), !content.hasPrefix("[[") else {
          throw SyntaxError(line: line, reason: "a section header is [name]")
        }
        let name = content.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
        guard Self.isBareKey(name) else {
          throw SyntaxError(line: line, reason: "\"\(name)\" is not a section name")
        }
        if let first = opened[name] {
          throw SyntaxError(
            line: line,
            reason: "[\(name)] is opened again (first on line \(first)); keep its keys under one")
        }
        opened[name] = line
        section = name
        continue
      }
      guard let equals = content.firstIndex(of: "=") else {
        throw SyntaxError(line: line, reason: "expected key = value")
      }
      let key = content[..<equals].trimmingCharacters(in: .whitespaces)
      guard Self.isBareKey(key) else {
        throw SyntaxError(line: line, reason: "\"\(key)\" is not a key")
      }
      let text = content[content.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      guard let value = Self.value(text) else {
        let reason =
          text.hasPrefix("[")
          ? "an array is strings on one line, such as [\"apple\", \"fyyd\"]"
          : "the value must be a \"string\", an integer, true or false"
        throw SyntaxError(line: line, reason: "\(key): \(reason)")
      }
      if let earlier = entries.first(where: { $0.section == section && $0.key == key }) {
        throw SyntaxError(line: line, reason: "\(key) is set twice (first on line \(earlier.line))")
      }
      entries.append(Entry(section: section, key: key, value: value, line: line))
    }
    self.entries = entries
  }

  private static func isBareKey(_ text: String) -> Bool {
    !text.isEmpty
      && text.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "-" || $0 == "_"
      }
  }

  /// The line up to a `#` that is not inside a string.
  private static func withoutComment(_ line: Substring) -> Substring {
    var quote: Character?
    var escaped = false
    for index in line.indices {
      let character = line[index]
      if let open = quote {
        if escaped {
          escaped = false
        } else if character == "\\" && open == "\"" {
          escaped = true
        } else if character == open {
          quote = nil
        }
      } else if character == "\"" || character == "'" {
        quote = character
      } else if character == "#" {
        return line[..<index]
      }
    }
    return line
  }

  private static func value(_ text: String) -> ConfigValue? {
    if text.hasPrefix("[") { return strings(text) }
    if text == "true" { return .boolean(true) }
    if text == "false" { return .boolean(false) }
    if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
      let inner = text.dropFirst().dropLast()
      return inner.contains("'") ? nil : .string(String(inner))
    }
    if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
      return basicString(text.dropFirst().dropLast()).map { .string($0) }
    }
    // TOML allows `_` between digits (1_000), not at either end or twice in a row.
    guard !text.hasPrefix("_"), !text.hasSuffix("_"), !text.contains("__") else { return nil }
    return Int(text.replacingOccurrences(of: "_", with: "")).map { .integer($0) }
  }

  /// `["a", 'b',]`: strings only, a trailing comma allowed.
  private static func strings(_ text: String) -> ConfigValue? {
    guard text.hasSuffix("]") else { return nil }
    var elements: [String] = []
    var rest = Substring(text.dropFirst().dropLast())
    while true {
      rest = rest.drop { $0 == " " || $0 == "\t" }
      guard let quote = rest.first else { return .strings(elements) }
      guard quote == "\"" || quote == "'" else { return nil }
      // The element runs to the first unescaped closing quote.
      var end = rest.index(after: rest.startIndex)
      var escaped = false
      while end < rest.endIndex, escaped || rest[end] != quote {
        escaped = quote == "\"" && !escaped && rest[end] == "\\"
        end = rest.index(after: end)
      }
      guard end < rest.endIndex, case .string(let element)? = value(String(rest[...end])) else {
        return nil
      }
      elements.append(element)
      rest = rest[rest.index(after: end)...].drop { $0 == " " || $0 == "\t" }
      guard let separator = rest.first else { return .strings(elements) }
      guard separator == "," else { return nil }
      rest = rest.dropFirst()
    }
  }

  private static func basicString(_ inner: Substring) -> String? {
    var out = ""
    var iterator = inner.makeIterator()
    while let character = iterator.next() {
      if character == "\"" { return nil }
      guard character == "\\" else {
        out.append(character)
        continue
      }
      switch iterator.next() {
      case "\"": out.append("\"")
      case "\\": out.append("\\")
      case "n": out.append("\n")
      case "t": out.append("\t")
      case "u":
        let hex = String((0..<4).compactMap { _ in iterator.next() })
        guard hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code)
        else { return nil }
        out.unicodeScalars.append(scalar)
      default: return nil
      }
    }
    return out
  }
}

/// A value as the file writes it.
public enum ConfigValue: Equatable, Sendable {
  case string(String)
  case integer(Int)
  case boolean(Bool)
  /// `["apple", "fyyd"]`: strings on one line.
  case strings([String])

  /// One rule for numbers, whatever the key: a TOML integer, or a string holding one
  /// (`keep = 5` and `keep = "5"`); nil for anything else.
  var number: Int? {
    switch self {
    case .integer(let number): return number
    case .string(let text):
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      return trimmed.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "+") }
        ? Int(trimmed) : nil
    case .boolean, .strings: return nil
    }
  }

  /// The text a flag would take: a string as it is, an integer in decimal (`first = 2` is
  /// `--first 2`); nil for a boolean.
  var text: String? {
    switch self {
    case .string(let text): return text
    case .integer(let number): return String(number)
    case .boolean, .strings: return nil
    }
  }
}
