import Basics

/// Repairs a byte stream that claims (or defaults to) UTF-8 but is not: valid UTF-8 sequences
/// pass through, every byte that cannot start or continue one is read as Windows-1252. Feeds
/// that mix UTF-8 titles with a stray cp1252 "smart quote" are common, and a user wants their
/// episodes rather than an encoding error. C0 control bytes that XML 1.0 forbids anywhere
/// (NUL, BEL, ...) are dropped too: libxml2 stops at the first one, which silently lost every
/// item after a single stray NUL.
package struct Windows1252Fallback {
  /// Bytes of an incomplete sequence at the end of the previous chunk.
  private var carry: [UInt8] = []

  package mutating func repair(_ chunk: UnsafeRawBufferPointer, isLast: Bool) -> [UInt8] {
    var input = carry
    input.append(contentsOf: chunk)
    carry.removeAll()
    var output: [UInt8] = []
    output.reserveCapacity(input.count + input.count / 8)
    var index = 0
    while index < input.count {
      let byte = input[index]
      if byte < 0x80 {
        if byte >= 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { output.append(byte) }
        index += 1
        continue
      }
      let length = sequenceLength(byte)
      if length > 1 && index + length > input.count && !isLast
        && continuationBytesValid(input, from: index + 1, upTo: input.count)
      {
        carry = Array(input[index...])  // wait for the rest of the sequence
        break
      }
      if length > 1 && index + length <= input.count
        && continuationBytesValid(input, from: index + 1, upTo: index + length)
      {
        output.append(contentsOf: input[index..<index + length])
        index += length
      } else {
        appendWindows1252(byte, to: &output)
        index += 1
      }
    }
    return output
  }

  private func sequenceLength(_ lead: UInt8) -> Int {
    switch lead {
    case 0xC2...0xDF: return 2
    case 0xE0...0xEF: return 3
    case 0xF0...0xF4: return 4
    default: return 1
    }
  }

  private func continuationBytesValid(_ bytes: [UInt8], from start: Int, upTo end: Int) -> Bool {
    for i in start..<end where bytes[i] & 0xC0 != 0x80 { return false }
    return true
  }

  private func appendWindows1252(_ byte: UInt8, to output: inout [UInt8]) {
    let scalar: UInt32
    if byte >= 0x80 && byte < 0xA0 {
      scalar = Self.controlRange[Int(byte - 0x80)]
    } else {
      scalar = UInt32(byte)
    }
    let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
    output.append(contentsOf: Array(String(Character(character)).utf8))
  }

  /// 0x80...0x9F in Windows-1252; undefined bytes become U+FFFD.
  private static let controlRange: [UInt32] = [
    0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
    0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
  ]
}
