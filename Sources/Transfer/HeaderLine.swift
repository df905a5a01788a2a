import Basics

/// One line of a response head as libcurl hands it over (CRLF included), read as bytes.
///
/// Only a field's name and value become Strings: trimming and searching the whole line through
/// Foundation cost about a tenth of the CPU of a sync where every feed answers 304.
package enum HeaderLine: Equatable {
  /// "HTTP/1.1 301 Moved Permanently", "HTTP/2 200": a new response head begins.
  case status(Int)
  /// "ETag: "abc"": the name lowercased, the value without surrounding blanks.
  case field(name: String, value: String)
  /// The blank line that ends a head.
  case end
  /// Anything else (an obsolete folded continuation line, say): ignored.
  case other

  package init(_ line: UnsafeRawBufferPointer) {
    if line.starts(with: "HTTP/".utf8) {
      self = .status(Self.statusCode(line[...]))
    } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
      let name = line[..<colon]
      let value = Self.trimmed(line[(colon + 1)...])
      self = .field(
        name: String(unsafeUninitializedCapacity: name.count) { buffer in
          for (offset, byte) in name.enumerated() { buffer[offset] = byte.asciiLowercased }
          return name.count
        },
        value: String(decoding: value, as: UTF8.self))
    } else {
      self = Self.trimmed(line[...]).isEmpty ? .end : .other
    }
  }

  /// Whether a status line came over HTTP/2 or HTTP/3, where transfers to the host become
  /// streams on one connection rather than connections of their own.
  package static func isMultiplexedStatus(_ line: UnsafeRawBufferPointer) -> Bool {
    line.starts(with: "HTTP/2".utf8) || line.starts(with: "HTTP/3".utf8)
  }

  /// The number after the protocol, 0 when there is none.
  private static func statusCode(_ line: Slice<UnsafeRawBufferPointer>) -> Int {
    guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return 0 }
    let digits = trimmed(line[(space + 1)...]).prefix { $0 != UInt8(ascii: " ") }
    guard !digits.isEmpty, digits.count <= 3 else { return 0 }
    var code = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return 0 }
      code = code * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return code
  }

  /// Without leading and trailing spaces, tabs and line ends.
  private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<
    UnsafeRawBufferPointer
  > {
    let isBlank = { (byte: UInt8) in
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
        || byte == UInt8(ascii: "\n")
    }
    guard let first = bytes.firstIndex(where: { !isBlank($0) }),
      let last = bytes.lastIndex(where: { !isBlank($0) })
    else { return bytes[bytes.endIndex...] }
    return bytes[first...last]
  }
}
