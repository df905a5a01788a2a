import Foundation
import PodcastKit

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
/// Keys, brackets and numbers go straight into the byte buffer: through `String` they were a
/// fifth of the writer's work on a large listing.
struct JSONWriter: ~Copyable {
  private var bytes = ByteBuffer(capacity: 1 << 12)
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
    defer { bytes.removeAll() }
    return bytes.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
  }

  mutating func write(_ value: JSONValue, indent: Int = 0) {
    switch value {
    case .null: bytes.append("null")
    case .bool(let flag): bytes.append(flag ? "true" : "false")
    case .int(let number): integer(number)
    case .double(let number):
      if number.isFinite {
        bytes.append(utf8Of: String(number))
      } else {
        bytes.append("null")
      }
    case .string(let text): string(text)
    case .utf8(let utf8): utf8.withUnsafeBufferPointer { string(utf8: $0) }
    case .instant(let date): instant(date)
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
        bytes.append(": ")
        write(item, indent: indent + 2)
      }
      close("}", empty: pairs.isEmpty, indent: indent)
    }
    flushIfLarge()
  }

  // Pieces for callers that stream a container element by element.
  mutating func open(_ bracket: StaticString) { bytes.append(bracket) }

  mutating func element(first: Bool, indent: Int) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    bytes.append(UInt8(ascii: "\n"))
    bytes.append(repeating: UInt8(ascii: " "), times: indent)
  }

  mutating func close(_ bracket: StaticString, empty: Bool, indent: Int) {
    if !empty {
      bytes.append(UInt8(ascii: "\n"))
      bytes.append(repeating: UInt8(ascii: " "), times: indent)
    }
    bytes.append(bracket)
  }

  /// A key the program spells: a literal never needs escaping, so it is copied as it is.
  mutating func key(_ name: StaticString) {
    bytes.append(UInt8(ascii: "\""))
    bytes.append(name)
    bytes.append("\": ")
  }

  // Values written straight from their Swift form, for documents streamed member by member
  // (`episodes --json`): no `JSONValue` tree is built only to be walked once.

  mutating func value(_ text: String?) {
    guard let text else { return bytes.append("null") }
    string(text)
  }

  /// A URL, masked unless `--show-secrets` (see `JSONValue.url`).
  mutating func value(url: String?) {
    value(url.map(Console.shown))
  }

  mutating func value<T: BinaryInteger>(_ number: T?) {
    guard let number else { return bytes.append("null") }
    if let exact = Int64(exactly: number) {
      integer(exact)
    } else {
      bytes.append(utf8Of: String(number))
    }
  }

  mutating func value(_ flag: Bool?) {
    guard let flag else { return bytes.append("null") }
    bytes.append(flag ? "true" : "false")
  }

  mutating func value(_ date: Date?) {
    guard let date else { return bytes.append("null") }
    instant(date)
  }

  mutating func value(utf8: [UInt8]?) {
    guard let utf8 else { return bytes.append("null") }
    utf8.withUnsafeBufferPointer { string(utf8: $0) }
  }

  mutating func value(utf8Buffer: UnsafeBufferPointer<UInt8>) {
    string(utf8: utf8Buffer)
  }

  mutating func finish() {
    bytes.append(UInt8(ascii: "\n"))
    flush()
  }

  private mutating func instant(_ date: Date) {
    var text: [UInt8] = []
    text.reserveCapacity(24)
    text.append(UInt8(ascii: "\""))
    ISO8601.append(date, to: &text)
    text.append(UInt8(ascii: "\""))
    bytes.append(text)
  }

  /// Digits from the right into a small stack buffer: `String(number)` built and freed a
  /// string for every index, duration and length.
  private mutating func integer(_ number: Int64) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var magnitude = number.magnitude
      var start = 20
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      if number < 0 { bytes.append(UInt8(ascii: "-")) }
      bytes.append(UnsafeBufferPointer(rebasing: digits[start..<20]))
    }
  }

  private mutating func string(_ text: String) {
    var text = text
    text.withUTF8 { string(utf8: $0) }
  }

  /// Copies runs of bytes that need no escaping in one go, finding the next byte that does
  /// eight at a time: show notes are most of the output, with a quote or a newline only
  /// every few dozen bytes.
  private mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
    bytes.append(UInt8(ascii: "\""))
    guard let base = utf8.baseAddress else {
      bytes.append(UInt8(ascii: "\""))
      return
    }
    let count = utf8.count
    var runStart = 0
    var index = 0
    while index < count {
      let stop: Int
      if index + 16 <= count {
        // Two words per turn: show notes run a hundred bytes or so between escapes.
        let low = Self.escapeMask(Self.word(base + index))
        let high = Self.escapeMask(Self.word(base + index + 8))
        if low | high == 0 {
          index += 16
          continue
        }
        stop =
          low != 0
          ? index + low.trailingZeroBitCount / 8 : index + 8 + high.trailingZeroBitCount / 8
      } else if index + 8 <= count {
        let mask = Self.escapeMask(Self.word(base + index))
        if mask == 0 {
          index += 8
          continue
        }
        stop = index + mask.trailingZeroBitCount / 8
      } else {
        guard Self.needsEscape(base[index]) else {
          index += 1
          continue
        }
        stop = index
      }
      bytes.append(base + runStart, count: stop - runStart)
      escape(base[stop])
      index = stop + 1
      runStart = index
    }
    bytes.append(base + runStart, count: count - runStart)
    bytes.append(UInt8(ascii: "\""))
  }

  @inline(__always)
  private static func word(_ at: UnsafePointer<UInt8>) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(at).loadUnaligned(as: UInt64.self))
  }

  /// The high bit of each byte of `word` that is a control character, `"` or a backslash, and only
  /// of those (no carries between bytes, so the lowest set bit marks the first such byte).
  @inline(__always)
  private static func escapeMask(_ word: UInt64) -> UInt64 {
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let highs: UInt64 = 0x8080_8080_8080_8080
    let ones: UInt64 = 0x0101_0101_0101_0101
    // A byte's high bit after adding 0x60 to its low seven bits: set when they are >= 0x20.
    let control = ~((word & low7) &+ ones &* 0x60 | word) & highs
    @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { ~((x & low7) &+ low7 | x) & highs }
    return control | zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C))
  }

  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
  }

  private mutating func escape(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""): bytes.append("\\\"")
    case UInt8(ascii: "\\"): bytes.append("\\\\")
    case UInt8(ascii: "\n"): bytes.append("\\n")
    case UInt8(ascii: "\r"): bytes.append("\\r")
    case UInt8(ascii: "\t"): bytes.append("\\t")
    default:
      bytes.append("\\u00")
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
    bytes.withUnsafeBufferPointer { Console.write(UnsafeRawBufferPointer($0), to: descriptor) }
    bytes.removeAll()
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
