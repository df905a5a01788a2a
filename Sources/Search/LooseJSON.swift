import Basics
import Foundation

/// A JSON answer read without a fixed schema, for directories whose fields change type from
/// one answer to the next (a count as `"921"` or `921`, categories as an array, an object or
/// a number, `null` where a value is expected). Readers ask for the shape they want and get
/// nil for anything else, so an odd field is a missing field, never a failed search.
package enum LooseJSON: Decodable, Equatable, Sendable {
  case object([String: LooseJSON])
  case array([LooseJSON])
  case string(String)
  case number(Double)
  case bool(Bool)
  case null

  /// Why a body could not be read at all; the phrase goes into the error the user sees.
  package enum Unreadable: Error, Equatable {
    case empty
    case htmlPage
    case malformed

    package var phrase: String {
      switch self {
      case .empty: return "an empty body"
      case .htmlPage: return "an HTML page instead of JSON"
      case .malformed: return "the JSON is cut short or malformed"
      }
    }
  }

  /// The body as JSON; blank lines before it (as some servers send) are skipped.
  package static func decode(_ body: Data) throws(Unreadable) -> LooseJSON {
    let text = body.drop { byte in byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
    guard let first = text.first else { throw .empty }
    if first == UInt8(ascii: "<") { throw .htmlPage }
    do {
      return try JSONDecoder().decode(LooseJSON.self, from: Data(text))
    } catch {
      throw .malformed
    }
  }

  package init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let array = try? container.decode([LooseJSON].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: LooseJSON].self))
    }
  }

  package subscript(key: String) -> LooseJSON? {
    guard case .object(let members) = self else { return nil }
    return members[key]
  }

  /// A string with something in it (trimmed); numbers are not text.
  package var text: String? {
    guard case .string(let value) = self else { return nil }
    let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }

  /// A whole number, sent as a number or as a string of digits.
  package var integer: Int? {
    switch self {
    case .number(let value):
      guard value.rounded() == value, abs(value) < 9e15 else { return nil }
      return Int(value)
    case .string(let value):
      return Int(value.trimmingCharacters(in: .whitespaces))
    default:
      return nil
    }
  }

  package var array: [LooseJSON]? {
    guard case .array(let elements) = self else { return nil }
    return elements
  }

  package var isObject: Bool {
    if case .object = self { return true }
    return false
  }

  /// An `http` or `https` URL; anything else (a `file:` URL, a bare host) is no URL.
  package var webURL: String? {
    guard let text, let scheme = text.split(separator: ":", maxSplits: 1).first else {
      return nil
    }
    let lowered = scheme.lowercased()
    return (lowered == "http" || lowered == "https") && text.contains("://") ? text : nil
  }
}
