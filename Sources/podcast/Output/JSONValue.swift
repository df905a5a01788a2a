import Foundation

/// A JSON document with ordered keys and explicit nulls, as the contract wants
/// (Codable would drop nil keys and reorder them).
enum JSONValue: Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  /// A string already held as UTF-8 bytes (show notes): written without becoming a `String`.
  case utf8([UInt8])
  /// A date, written as `ISO8601.string` would, straight into the output.
  case instant(Date)
  case array([JSONValue])
  case object([(String, JSONValue)])

  static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
  /// A URL, its secrets masked unless the user asked for them (`--show-secrets`).
  static func url(_ value: String?) -> JSONValue {
    value.map { .string(Console.shown($0)) } ?? .null
  }
  static func int<T: BinaryInteger>(_ value: T?) -> JSONValue {
    value.map { .int(Int64($0)) } ?? .null
  }
  static func bool(_ value: Bool?) -> JSONValue { value.map { .bool($0) } ?? .null }
  static func date(_ value: Date?) -> JSONValue {
    value.map { .instant($0) } ?? .null
  }

  /// The item at `index` of an array; nil otherwise.
  func element(at index: Int) -> JSONValue? {
    guard case .array(let items) = self, items.indices.contains(index) else { return nil }
    return items[index]
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
    case .utf8(let bytes): bytes.withUnsafeBufferPointer { string(utf8: $0) }
    case .instant(let date):
      bytes.append(UInt8(ascii: "\""))
      ISO8601.append(date, to: &bytes)
      bytes.append(UInt8(ascii: "\""))
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

  // Values written straight from their Swift form, for documents streamed member by member
  // (`episodes --json`): no `JSONValue` tree is built only to be walked once.

  mutating func value(_ text: String?) {
    guard let text else { return raw("null") }
    string(text)
  }

  /// A URL, masked unless `--show-secrets` (see `JSONValue.url`).
  mutating func value(url: String?) {
    value(url.map(Console.shown))
  }

  mutating func value<T: BinaryInteger>(_ number: T?) {
    raw(number.map { String($0) } ?? "null")
  }

  mutating func value(_ flag: Bool?) {
    raw(flag.map { $0 ? "true" : "false" } ?? "null")
  }

  mutating func value(_ date: Date?) {
    guard let date else { return raw("null") }
    write(.instant(date))
  }

  mutating func value(utf8: [UInt8]?) {
    guard let utf8 else { return raw("null") }
    utf8.withUnsafeBufferPointer { string(utf8: $0) }
  }

  mutating func finish() {
    bytes.append(UInt8(ascii: "\n"))
    flush()
  }

  /// Through `withUTF8`: appending a `String.UTF8View` goes element by element, and this runs
  /// for every key and bracket of a 20,000-episode listing.
  private mutating func raw(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// Copies runs of bytes that need no escaping in one go: appending byte by byte made this
  /// the hottest function of `episodes --json` (show notes are most of the output).
  private mutating func string(_ text: String) {
    var text = text
    text.withUTF8 { string(utf8: $0) }
  }

  private mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
    bytes.append(UInt8(ascii: "\""))
    guard let base = utf8.baseAddress else {
      bytes.append(UInt8(ascii: "\""))
      return
    }
    var runStart = 0
    var index = 0
    while index < utf8.count {
      // Eight bytes at a time: show notes are most of the output and rarely need escaping.
      if index + 8 <= utf8.count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if !Self.mayNeedEscape(word) {
          index += 8
          continue
        }
      }
      let byte = base[index]
      if Self.needsEscape(byte) {
        bytes.append(
          contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
        escape(byte)
        runStart = index + 1
      }
      index += 1
    }
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: base + runStart, count: utf8.count - runStart))
    bytes.append(UInt8(ascii: "\""))
  }

  /// Whether any of the word's bytes may be a control character, `"` or `\\` (never false
  /// when one is; sometimes true when none is, then the bytes are looked at one by one).
  private static func mayNeedEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
    let hasControl = (word &- ones &* 0x20) & ~word & highs != 0
    return hasControl || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
  }

  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
  }

  private mutating func escape(_ byte: UInt8) {
    // Byte by byte: HTML show notes escape a quote every few dozen bytes.
    bytes.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
    case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
    case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
    case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
    default:
      bytes.append(UInt8(ascii: "u"))
      bytes.append(UInt8(ascii: "0"))
      bytes.append(UInt8(ascii: "0"))
      bytes.append(Self.hex[Int(byte >> 4)])
      bytes.append(Self.hex[Int(byte & 0xF)])
    }
  }

  private static let hex = Array("0123456789abcdef".utf8)

  mutating func flushIfLarge() {
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
    var bytes: [UInt8] = []
    append(date, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The same text as `string`, digit by digit: 20,000 dates through string interpolation
  /// were 4% of a large `episodes --json`.
  static func append(_ date: Date, to bytes: inout [UInt8]) {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let days = (seconds - positiveRemainder(seconds, 86_400)) / 86_400
    let time = positiveRemainder(seconds, 86_400)
    let (year, month, day) = civil(fromDays: days)
    if year < 0 { bytes.append(UInt8(ascii: "-")) }
    digits(abs(year), 4, &bytes)
    bytes.append(UInt8(ascii: "-"))
    digits(month, 2, &bytes)
    bytes.append(UInt8(ascii: "-"))
    digits(day, 2, &bytes)
    bytes.append(UInt8(ascii: "T"))
    digits(time / 3600, 2, &bytes)
    bytes.append(UInt8(ascii: ":"))
    digits(time / 60 % 60, 2, &bytes)
    bytes.append(UInt8(ascii: ":"))
    digits(time % 60, 2, &bytes)
    bytes.append(UInt8(ascii: "Z"))
  }

  /// `value` in decimal, zero-padded to at least `width` digits.
  private static func digits(_ value: Int, _ width: Int, _ bytes: inout [UInt8]) {
    var divisor = 1
    var count = 1
    while divisor <= value / 10 {
      divisor *= 10
      count += 1
    }
    for _ in count..<max(width, count) { bytes.append(UInt8(ascii: "0")) }
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
      divisor /= 10
    }
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
}
