/// `--name value` pairs after a subcommand. Every option takes a value; repeating one keeps all
/// values in order. Small on purpose: this tool is for the Makefile and tests, not for users.
struct CommandLineOptions {
  private var values: [String: [String]] = [:]

  init(_ arguments: [String], allowed: Set<String>) throws(TestServerError) {
    var rest = arguments[...]
    while let name = rest.popFirst() {
      guard name.hasPrefix("--"), allowed.contains(String(name.dropFirst(2))) else {
        throw .unknownOption(name)
      }
      guard let value = rest.popFirst() else { throw .missingValue(option: name) }
      values[String(name.dropFirst(2)), default: []].append(value)
    }
  }

  func all(_ name: String) -> [String] {
    values[name] ?? []
  }

  func string(_ name: String) -> String? {
    values[name]?.last
  }

  func required(_ name: String) throws(TestServerError) -> String {
    guard let value = string(name) else { throw .missingOption("--\(name)") }
    return value
  }

  /// The option as a whole number in `range`, or nil when absent.
  func integer(_ name: String, in range: ClosedRange<Int>) throws(TestServerError) -> Int? {
    guard let text = string(name) else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw .badNumber(option: "--\(name)", value: text, range: range)
    }
    return value
  }
}
