import Foundation

extension String {
  /// `trimmingCharacters(in: .whitespacesAndNewlines)`, skipping Foundation when neither end
  /// can be blank (`isSurelyTrimmed`, nearly always): on Linux that call bridges to NSString,
  /// and per episode that is a visible part of a sync's CPU.
  @inlinable
  public var trimmingWhitespace: String {
    Self.isSurelyTrimmed(self) ? self : trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Whether `text` starts and ends with a printable ASCII byte that is not in `extra`, so no
  /// trimming (Unicode whitespace included) could change it. Parsed values almost always are:
  /// this lets callers skip Foundation's UTF-16 trimming, which dominated the per-item cost.
  /// Public and inlinable, like `UInt8.asciiLowercased`: the parsers call it per value from
  /// other targets, and a call across targets is not inlined otherwise.
  @inlinable
  public static func isSurelyTrimmed(_ text: String, extra: StaticString = "") -> Bool {
    let utf8 = text.utf8
    guard let first = utf8.first, let last = utf8.last else { return false }
    return isPlainASCII(first, extra) && isPlainASCII(last, extra)
  }

  @usableFromInline
  static func isPlainASCII(_ byte: UInt8, _ extra: StaticString) -> Bool {
    guard byte > 0x20 && byte < 0x7F else { return false }
    let excluded = UnsafeBufferPointer(start: extra.utf8Start, count: extra.utf8CodeUnitCount)
    return !excluded.contains(byte)
  }
}
