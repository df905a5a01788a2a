import Foundation

/// Writes JSON as UTF-8 bytes, pretty-printed with two-space indents, optionally flushing to a
/// file descriptor as it goes so a 20,000-episode listing never sits in memory as one string.
/// Keys, brackets and numbers go straight into the byte buffer: through `String` they were a
/// fifth of the writer's work on a large listing.
///
/// Public, with the small pieces `@inlinable`, for the same reason as `ByteBuffer`: an episode's
/// members are written by `EpisodeJSON` in Feeds, a module away, and a call per key and value
/// (a generic one for numbers) would add up over 20,000 episodes.
public struct JSONWriter: ~Copyable {
  @usableFromInline var bytes = ByteBuffer(capacity: 1 << 12)
  /// Where full buffers go when streaming; nil collects into memory.
  private let sink: ((UnsafeRawBufferPointer) -> Void)?

  /// Collects into memory (`takeString`, `takeData`).
  public init() {
    sink = nil
  }

  /// Streams to `sink` (the caller's write loop on a descriptor), flushing every 64 KiB.
  public init(flushingTo sink: @escaping (UnsafeRawBufferPointer) -> Void) {
    self.sink = sink
    bytes.reserveCapacity(1 << 17)
  }

  public mutating func takeString() -> String {
    defer { bytes.removeAll() }
    return bytes.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
  }

  /// The document so far, ending with a newline as `finish` ends a streamed one: a file's
  /// contents.
  public mutating func takeData() -> Data {
    bytes.append(UInt8(ascii: "\n"))
    defer { bytes.removeAll() }
    return bytes.withUnsafeBufferPointer { Data(buffer: $0) }
  }

  public mutating func write(_ value: JSONValue, indent: Int = 0) {
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
  @inlinable
  public mutating func open(_ bracket: StaticString) { bytes.append(bracket) }

  @inlinable
  public mutating func element(first: Bool, indent: Int) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    bytes.append(UInt8(ascii: "\n"))
    bytes.append(repeating: UInt8(ascii: " "), times: indent)
  }

  @inlinable
  public mutating func close(_ bracket: StaticString, empty: Bool, indent: Int) {
    if !empty {
      bytes.append(UInt8(ascii: "\n"))
      bytes.append(repeating: UInt8(ascii: " "), times: indent)
    }
    bytes.append(bracket)
  }

  /// A key the program spells: a literal never needs escaping, so it is copied as it is.
  @inlinable
  public mutating func key(_ name: StaticString) {
    bytes.append(UInt8(ascii: "\""))
    bytes.append(name)
    bytes.append("\": ")
  }

  // Values written straight from their Swift form, for documents streamed member by member
  // (`episodes --json`): no `JSONValue` tree is built only to be walked once.

  @inlinable
  public mutating func value(_ text: String?) {
    guard let text else { return bytes.append("null") }
    string(text)
  }

  @inlinable
  public mutating func value<T: BinaryInteger>(_ number: T?) {
    guard let number else { return bytes.append("null") }
    if let exact = Int64(exactly: number) {
      integer(exact)
    } else {
      bytes.append(utf8Of: String(number))
    }
  }

  @inlinable
  public mutating func value(_ flag: Bool?) {
    guard let flag else { return bytes.append("null") }
    bytes.append(flag ? "true" : "false")
  }

  @inlinable
  public mutating func value(_ date: Date?) {
    guard let date else { return bytes.append("null") }
    instant(date)
  }

  @inlinable
  public mutating func value(utf8Buffer: UnsafeBufferPointer<UInt8>) {
    string(utf8: utf8Buffer)
  }

  public mutating func finish() {
    bytes.append(UInt8(ascii: "\n"))
    flush()
  }

  @usableFromInline
  mutating func instant(_ date: Date) {
    var text: [UInt8] = []
    text.reserveCapacity(24)
    text.append(UInt8(ascii: "\""))
    ISO8601.append(date, to: &text)
    text.append(UInt8(ascii: "\""))
    bytes.append(text)
  }

  /// Digits from the right into a small stack buffer: `String(number)` built and freed a
  /// string for every index, duration and length.
  @usableFromInline
  mutating func integer(_ number: Int64) {
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

  @usableFromInline
  mutating func string(_ text: String) {
    var text = text
    text.withUTF8 { string(utf8: $0) }
  }

  /// Copies runs of bytes that need no escaping in one go, finding the next byte that does
  /// eight at a time: show notes are most of the output, with a quote or a newline only
  /// every few dozen bytes.
  @usableFromInline
  mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
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

  public mutating func flushIfLarge() {
    if sink != nil && bytes.count >= 1 << 16 { flush() }
  }

  private mutating func flush() {
    guard let sink, !bytes.isEmpty else { return }
    bytes.withUnsafeBufferPointer { sink(UnsafeRawBufferPointer($0)) }
    bytes.removeAll()
  }
}
