import Basics

/// What the first bytes of a document say before any XML parsing: whether there is anything
/// at all, whether it is an HTML page (often not well-formed enough for the XML parser to
/// name its root), and whether it starts with a UTF-16/32 byte order mark.
package struct DocumentSniff {
  package private(set) var hasContent = false
  package private(set) var isHTML = false
  package private(set) var hasWideBOM = false
  /// gzip's magic number: compressed bytes a server sent without `Content-Encoding`.
  package private(set) var isGzip = false
  /// Set once the first non-blank markup has been seen.
  package private(set) var isDecided = false
  private var head: [UInt8] = []
  private var sawFirstBytes = false

  package mutating func look(at chunk: UnsafeRawBufferPointer) {
    if !sawFirstBytes, chunk.count > 0 {
      sawFirstBytes = true
      let b = Array(chunk.prefix(4))
      isGzip = b.starts(with: [0x1F, 0x8B])
      hasWideBOM =
        b.starts(with: [0xFE, 0xFF]) || b.starts(with: [0xFF, 0xFE])
        || b.starts(with: [0, 0, 0xFE, 0xFF])
        || (b.count >= 2 && (b[0] == 0 || b[1] == 0))  // BOM-less UTF-16/32 "<"
    }
    for byte in chunk where !isDecided {
      if head.isEmpty && (byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0)
      {
        continue
      }
      if head.isEmpty
        && (byte == 0xEF || byte == 0xBB || byte == 0xBF || byte == 0xFE || byte == 0xFF)
      {
        continue  // byte order marks
      }
      hasContent = true
      head.append(byte.asciiLowercased)
      if head.count >= 14 { decide() }
    }
    if !isDecided && head.count >= 5 && !chunk.isEmpty { decideIfPossible() }
  }

  private mutating func decideIfPossible() {
    if head.count >= 14
      || !"<!doctype html".utf8.starts(with: head) && !"<html".utf8.starts(with: head)
    {
      decide()
    }
  }

  private mutating func decide() {
    isDecided = true
    isHTML =
      head.starts(with: Array("<!doctype html".utf8)) || head.starts(with: Array("<html".utf8))
  }
}
