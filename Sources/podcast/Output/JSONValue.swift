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
  static func int<T: BinaryInteger>(_ value: T?) -> JSONValue {
    value.map { .int(Int64($0)) } ?? .null
  }
  static func bool(_ value: Bool?) -> JSONValue { value.map { .bool($0) } ?? .null }
  static func date(_ value: Date?) -> JSONValue {
    value.map { .string(ISO8601.string($0)) } ?? .null
  }

  func rendered() -> String {
    var writer = JSONWriter()
    writer.write(self)
    return writer.takeString()
  }
}

/// Writes JSON as UTF-8 bytes, pretty-printed with two-space indents, optionally flushing to a
/// file descriptor as it goes so a 20,000-episode listing never sits in memory as one string.
struct JSONWriter {
  private var bytes: [UInt8] = []
  private let descriptor: Int32?

  /// Collects into memory (`takeString`).
  init() {
    descriptor = nil
  }

  /// Streams to `descriptor`, flushing every 64 KiB.
  init(streamingTo descriptor: Int32) {
    self.descriptor = descriptor
    bytes.reserveCapacity(1 << 17)
  }

  mutating func takeString() -> String {
    defer { bytes = [] }
    return String(decoding: bytes, as: UTF8.self)
  }

  mutating func write(_ value: JSONValue, indent: Int = 0) {
    switch value {
    case .null: raw("null")
    case .bool(let flag): raw(flag ? "true" : "false")
    case .int(let number): raw(String(number))
    case .double(let number): raw(number.isFinite ? String(number) : "null")
    case .string(let text): string(text)
    case .array(let items):
      open("[")
      for (offset, item) in items.enumerated() {
        element(first: offset == 0, indent: indent + 2)
        write(item, indent: indent + 2)
      }
      close("]", empty: items.isEmpty, indent: indent)
    case .object(let pairs):
      open("{")
      for (offset, (key, item)) in pairs.enumerated() {
        element(first: offset == 0, indent: indent + 2)
        string(key)
        raw(": ")
        write(item, indent: indent + 2)
      }
      close("}", empty: pairs.isEmpty, indent: indent)
    }
    flushIfLarge()
  }

  // Pieces for callers that stream a container element by element.
  mutating func open(_ bracket: String) { raw(bracket) }

  mutating func element(first: Bool, indent: Int) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    bytes.append(UInt8(ascii: "\n"))
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
  }

  mutating func close(_ bracket: String, empty: Bool, indent: Int) {
    if !empty {
      bytes.append(UInt8(ascii: "\n"))
      bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
    }
    raw(bracket)
  }

  mutating func key(_ name: String) {
    string(name)
    raw(": ")
  }

  mutating func finish() {
    bytes.append(UInt8(ascii: "\n"))
    flush()
  }

  private mutating func raw(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// Copies runs of bytes that need no escaping in one go: appending byte by byte made this
  /// the hottest function of `episodes --json` (show notes are most of the output).
  private mutating func string(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      var runStart = 0
      for index in utf8.indices where Self.needsEscape(utf8[index]) {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        escape(utf8[index])
        runStart = index + 1
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
  }

  private mutating func escape(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""): raw("\\\"")
    case UInt8(ascii: "\\"): raw("\\\\")
    case UInt8(ascii: "\n"): raw("\\n")
    case UInt8(ascii: "\r"): raw("\\r")
    case UInt8(ascii: "\t"): raw("\\t")
    default:
      raw("\\u00")
      bytes.append(Self.hex[Int(byte >> 4)])
      bytes.append(Self.hex[Int(byte & 0xF)])
    }
  }

  private static let hex = Array("0123456789abcdef".utf8)

  private mutating func flushIfLarge() {
    if descriptor != nil && bytes.count >= 1 << 16 { flush() }
  }

  private mutating func flush() {
    guard let descriptor, !bytes.isEmpty else { return }
    Console.write(bytes, to: descriptor)
    bytes.removeAll(keepingCapacity: true)
  }
}

/// `2024-05-01T10:00:00Z`: UTC, whole seconds, proleptic Gregorian like `FeedDate` (the same
/// text as Foundation's ISO 8601 style from 1582 on; before that Foundation turns Julian).
enum ISO8601 {
  /// Written by hand: Foundation's ISO 8601 format style brings in ICU, which cost 2 MB of
  /// memory and a tenth of a second on the 20,000 dates of a large feed listing.
  static func string(_ date: Date) -> String {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let days = (seconds - positiveRemainder(seconds, 86_400)) / 86_400
    let time = positiveRemainder(seconds, 86_400)
    let (year, month, day) = civil(fromDays: days)
    return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
      + "\(padded(time / 3600, 2)):\(padded(time / 60 % 60, 2)):\(padded(time % 60, 2))Z"
  }

  /// Howard Hinnant's civil_from_days: the proleptic Gregorian date `days` after 1970-01-01.
  private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func positiveRemainder(_ value: Int, _ divisor: Int) -> Int {
    let remainder = value % divisor
    return remainder < 0 ? remainder + divisor : remainder
  }

  private static func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
