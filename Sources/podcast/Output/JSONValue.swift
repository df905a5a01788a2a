import Foundation

/// A JSON document with ordered keys and explicit nulls, as the contract wants
/// (Codable would drop nil keys and reorder them).
enum JSONValue: Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
  static func int<T: BinaryInteger>(_ value: T?) -> JSONValue { value.map { .int(Int64($0)) } ?? .null }
  static func bool(_ value: Bool?) -> JSONValue { value.map { .bool($0) } ?? .null }
  static func date(_ value: Date?) -> JSONValue { value.map { .string(ISO8601.string($0)) } ?? .null }

  func rendered(pretty: Bool = true) -> String {
    var out = ""
    write(to: &out, indent: pretty ? 0 : nil)
    return out
  }

  private func write(to out: inout String, indent: Int?) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .int(let value): out += String(value)
    case .double(let value): out += value.isFinite ? String(value) : "null"
    case .string(let value): JSONValue.writeString(value, to: &out)
    case .array(let items):
      writeContainer(items.map { (nil, $0) }, open: "[", close: "]", to: &out, indent: indent)
    case .object(let pairs):
      writeContainer(pairs.map { ($0.0, $0.1) }, open: "{", close: "}", to: &out, indent: indent)
    }
  }

  private func writeContainer(
    _ items: [(String?, JSONValue)], open: String, close: String, to out: inout String,
    indent: Int?
  ) {
    out += open
    if items.isEmpty { out += close; return }
    let inner = indent.map { $0 + 2 }
    for (offset, (key, value)) in items.enumerated() {
      if offset > 0 { out += "," }
      if let inner { out += "\n" + String(repeating: " ", count: inner) }
      if let key {
        JSONValue.writeString(key, to: &out)
        out += indent == nil ? ":" : ": "
      }
      value.write(to: &out, indent: inner)
    }
    if let indent { out += "\n" + String(repeating: " ", count: indent) }
    out += close
  }

  private static func writeString(_ value: String, to out: inout String) {
    out += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}

enum ISO8601 {
  static func string(_ date: Date) -> String {
    date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon).timeZone(separator: .omitted))
  }
}
