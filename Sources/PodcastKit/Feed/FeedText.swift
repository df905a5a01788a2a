/// Turning libxml2's UTF-8 bytes into Swift strings. Trimming happens on the bytes:
/// Foundation's `trimmingCharacters(in:)` walks UTF-16 and cost 10x the parse itself on show
/// notes of a 20,000-item feed.
enum FeedText {
  /// The bytes as a string, without leading and trailing ASCII whitespace.
  static func trimmedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var start = 0
    var end = bytes.count
    while start < end && isWhitespace(bytes[start]) { start += 1 }
    while end > start && isWhitespace(bytes[end - 1]) { end -= 1 }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
