import Foundation

/// A JSON document with ordered keys and explicit nulls, as every `--json` output has them:
/// an unknown value is a `null` under its key, never a missing key (Codable would drop nil keys
/// and reorder them).
public enum JSONValue: Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  /// A date, written as `ISO8601.string` would, straight into the output.
  case instant(Date)
  case array([JSONValue])
  case object([(String, JSONValue)])

  public static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
  public static func int<T: BinaryInteger>(_ value: T?) -> JSONValue {
    value.map { .int(Int64($0)) } ?? .null
  }
  public static func bool(_ value: Bool?) -> JSONValue { value.map { .bool($0) } ?? .null }
  public static func date(_ value: Date?) -> JSONValue {
    value.map { .instant($0) } ?? .null
  }

  public func rendered() -> String {
    var writer = JSONWriter()
    writer.write(self)
    return writer.takeString()
  }
}
