import Foundation

/// Passages as one column of the full-text index holds them: their texts joined by line
/// breaks, and beside it the timeline (where each passage starts in that text, in UTF-8
/// bytes, and at what moment of the audio), so a match found in the text is a moment again.
public struct PassageText: Sendable, Equatable {
  /// Each passage on a line of its own, cleaned as every indexed text is (`IndexedText.clean`).
  public let text: String
  /// One entry per passage, in order.
  public let starts: [Start]

  public struct Start: Sendable, Equatable {
    /// Where the passage begins in `text`, in UTF-8 bytes.
    public var offset: Int
    /// Milliseconds from the start of the audio; nil when the file gave none.
    public var milliseconds: Int?
  }

  /// Passages with no words left after cleaning are dropped.
  public init(_ passages: [Passage]) {
    var text = ""
    var starts: [Start] = []
    starts.reserveCapacity(passages.count)
    var offset = 0
    for passage in passages {
      let cleaned = IndexedText.clean(passage.text, keepingLines: false)
      guard !cleaned.isEmpty else { continue }
      if !text.isEmpty {
        text += "\n"
        offset += 1
      }
      starts.append(
        Start(offset: offset, milliseconds: passage.start.flatMap(Self.milliseconds)))
      text += cleaned
      offset += cleaned.utf8.count
    }
    self.text = text
    self.starts = starts
  }

  /// A column's text and the timeline `timeline` encoded, as read back from the index. A
  /// timeline that does not fit the text (a damaged row) reads as none.
  public init(text: String, timeline: [UInt8]?) {
    self.text = text
    let decoded = timeline.flatMap(Self.decode) ?? []
    let length = text.utf8.count
    let fits =
      zip(decoded, decoded.dropFirst()).allSatisfy { $0.offset < $1.offset }
      && decoded.allSatisfy { $0.offset <= length }
    starts = fits ? decoded : []
  }

  public var isEmpty: Bool { text.isEmpty }

  /// Whether any passage has a time: a transcript from WebVTT, SRT or JSON, a chapter list.
  public var isTimed: Bool { starts.contains { $0.milliseconds != nil } }

  /// The timeline as stored: 8 bytes per passage, the offset and the milliseconds as
  /// little-endian 32-bit numbers (0xFFFFFFFF: no time).
  public var timeline: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(starts.count * 8)
    for start in starts {
      Self.append(UInt32(clamping: start.offset), to: &bytes)
      Self.append(start.milliseconds.map { UInt32(clamping: $0) } ?? UInt32.max, to: &bytes)
    }
    return bytes
  }

  /// The passage holding the byte at `offset`: its byte range in `text` and its time.
  public func passage(at offset: Int) -> (index: Int, range: Range<Int>, milliseconds: Int?)? {
    guard !starts.isEmpty else { return nil }
    // The last start at or before `offset`.
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle].offset <= offset { low = middle } else { high = middle - 1 }
    }
    return passage(low)
  }

  /// The passage at `index`: its byte range in `text` (without the line break) and its time.
  public func passage(_ index: Int) -> (index: Int, range: Range<Int>, milliseconds: Int?)? {
    guard starts.indices.contains(index) else { return nil }
    let begin = starts[index].offset
    let end = index + 1 < starts.count ? starts[index + 1].offset - 1 : text.utf8.count
    return (index, begin..<max(begin, end), starts[index].milliseconds)
  }

  private static func milliseconds(_ seconds: Double) -> Int? {
    let value = (seconds * 1000).rounded()
    guard value.isFinite, value >= 0, value < Double(UInt32.max) else { return nil }
    return Int(value)
  }

  private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
    bytes.append(UInt8(truncatingIfNeeded: value))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    bytes.append(UInt8(truncatingIfNeeded: value >> 24))
  }

  private static func decode(_ bytes: [UInt8]) -> [Start]? {
    guard bytes.count % 8 == 0 else { return nil }
    func word(_ at: Int) -> UInt32 {
      UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
        | UInt32(bytes[at + 3]) << 24
    }
    return stride(from: 0, to: bytes.count, by: 8).map { at in
      let time = word(at + 4)
      return Start(offset: Int(word(at)), milliseconds: time == UInt32.max ? nil : Int(time))
    }
  }
}
