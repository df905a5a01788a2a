import Basics

/// XML's references (`&#38;`, `&#x26;`, `&amp;` and the other predefined four), read from
/// bytes. libxml2 without entity substitution hands attribute values over with every `&` still
/// written as `&#38;`, so a URL like `a.mp3?x=1&amp;y=2` arrives as `a.mp3?x=1&#38;y=2`; the
/// attribute reader decodes them here, in one pass, rather than turning substitution on (which
/// would reopen entity bombs and external entities).
package enum XMLReference {
  /// What one reference at the start of some bytes is.
  package enum Kind: Equatable {
    /// `&#NN;` or `&#xHH;`, with the scalar it stands for (nil when it names no scalar).
    case character(Unicode.Scalar?)
    /// `&name;`: the bytes of `name`.
    case named(ArraySlice<UInt8>)
  }

  /// Longest entity name or character number looked at: longer runs are not references.
  package static let maximumLength = 40

  /// The bytes with every well-formed character reference and predefined entity replaced by
  /// the text it stands for; anything else (`&` alone, unknown names) is kept as written.
  /// Returns nil when there is no `&`, so the common case copies nothing.
  package static func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    guard let first = bytes.firstIndex(of: ampersand) else { return nil }
    var output = Array(bytes[..<first])
    output.reserveCapacity(bytes.count)
    var index = first
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == ampersand, let (kind, length) = scan(bytes, at: index) else {
        output.append(byte)
        index += 1
        continue
      }
      switch kind {
      case .character(let scalar?):
        output.append(contentsOf: String(Character(scalar)).utf8)
      case .named(let name):
        if let predefined = predefined(name) {
          output.append(predefined)
        } else {
          output.append(contentsOf: bytes[index..<index + length])
        }
      case .character(nil):
        output.append(contentsOf: bytes[index..<index + length])
      }
      index += length
    }
    return output
  }

  /// The reference starting at `start` (which holds `&`) and its length in bytes, `;`
  /// included; nil when what follows is not a complete, well-formed reference.
  package static func scan<Bytes: RandomAccessCollection<UInt8>>(
    _ bytes: Bytes, at start: Bytes.Index
  )
    -> (kind: Kind, length: Int)?
  where Bytes.Index == Int {
    var index = start + 1
    let limit = min(bytes.endIndex, start + maximumLength)
    guard index < limit else { return nil }
    if bytes[index] == hash {
      index += 1
      let hex = index < limit && (bytes[index] == 0x78 || bytes[index] == 0x58)
      if hex { index += 1 }
      var value: UInt32 = 0
      let digitsStart = index
      while index < limit, let digit = digitValue(bytes[index], hex: hex) {
        value = min(value &* (hex ? 16 : 10) &+ digit, 0x11_0000)
        index += 1
      }
      guard index > digitsStart, index < limit, bytes[index] == semicolon else { return nil }
      return (.character(Unicode.Scalar(value)), index + 1 - start)
    }
    guard isNameStart(bytes[index]) else { return nil }
    let nameStart = index
    while index < limit, isNameByte(bytes[index]) { index += 1 }
    guard index < limit, bytes[index] == semicolon else { return nil }
    return (.named(ArraySlice(bytes[nameStart..<index])), index + 1 - start)
  }

  /// The character one of XML's five predefined entities stands for.
  package static func predefined(_ name: ArraySlice<UInt8>) -> UInt8? {
    if name.elementsEqual("amp".utf8) { return ampersand }
    if name.elementsEqual("lt".utf8) { return 0x3C }
    if name.elementsEqual("gt".utf8) { return 0x3E }
    if name.elementsEqual("quot".utf8) { return 0x22 }
    if name.elementsEqual("apos".utf8) { return 0x27 }
    return nil
  }

  package static let ampersand: UInt8 = 0x26
  private static let hash: UInt8 = 0x23
  private static let semicolon: UInt8 = 0x3B

  private static func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
    switch byte {
    case 0x30...0x39: return UInt32(byte - 0x30)
    case 0x61...0x66 where hex: return UInt32(byte - 0x61 + 10)
    case 0x41...0x46 where hex: return UInt32(byte - 0x41 + 10)
    default: return nil
    }
  }

  /// XML name characters, ASCII only plus any non-ASCII byte: enough to tell a reference
  /// from a stray `&` in a URL or a title.
  private static func isNameStart(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x5F || byte == 0x3A || byte >= 0x80
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
  }
}
