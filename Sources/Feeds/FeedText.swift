import Basics

/// Turning libxml2's UTF-8 bytes into Swift strings. Trimming happens on the bytes:
/// Foundation's `trimmingCharacters(in:)` walks UTF-16, which on the show notes of a large feed
/// costs many times the parse itself.
package enum FeedText {
  /// The bytes as a string, without leading and trailing ASCII whitespace.
  package static func trimmedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var start = 0
    var end = bytes.count
    while start < end && isWhitespace(bytes[start]) { start += 1 }
    while end > start && isWhitespace(bytes[end - 1]) { end -= 1 }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  /// The part of `buffer` without leading and trailing ASCII whitespace, where it lies. A copy
  /// to keep must be an array of its own (`Array(bytes[...])` of a whole array shares its
  /// buffer: a reused capture buffer's capacity then stayed with every episode, 45 MB on a
  /// 20,000-episode feed).
  package static func trimmed(_ buffer: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0
    var end = buffer.count
    while start < end && isWhitespace(buffer[start]) { start += 1 }
    while end > start && isWhitespace(buffer[end - 1]) { end -= 1 }
    return UnsafeBufferPointer(rebasing: buffer[start..<end])
  }

  /// Whether the bytes are empty or only ASCII whitespace (what trimming would leave empty).
  package static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    !bytes.contains { !isWhitespace($0) }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
