/// SHA-1 (FIPS 180-4), for the one place that needs it: Podcast Index's request signature,
/// a hash of a few dozen bytes per search. Foundation on Linux has no digest, and
/// swift-crypto would add BoringSSL to every build for this; SHA-1 is short enough to keep
/// here, and `SHA1Tests` checks it against the standard's vectors and coreutils' `sha1sum`.
package enum SHA1 {
  /// The digest of `bytes` as lowercase hexadecimal, two digits per byte.
  package static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    digest(bytes).map { byte in
      let text = String(byte, radix: 16)
      return byte < 16 ? "0" + text : text
    }.joined()
  }

  package static func digest<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8]
  where Bytes.Element == UInt8 {
    var message = Array(bytes)
    let bitLength = UInt64(message.count) &* 8
    message.append(0x80)
    while message.count % 64 != 56 { message.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
      message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }

    var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
      0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
    )
    var w = [UInt32](repeating: 0, count: 80)
    for chunk in stride(from: 0, to: message.count, by: 64) {
      for index in 0..<16 {
        let base = chunk + index * 4
        w[index] =
          UInt32(message[base]) << 24 | UInt32(message[base + 1]) << 16
          | UInt32(message[base + 2]) << 8 | UInt32(message[base + 3])
      }
      for index in 16..<80 {
        w[index] = rotated(w[index - 3] ^ w[index - 8] ^ w[index - 14] ^ w[index - 16], by: 1)
      }
      var (a, b, c, d, e) = h
      for index in 0..<80 {
        let (f, k): (UInt32, UInt32)
        switch index {
        case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
        case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
        case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
        default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
        }
        let next = rotated(a, by: 5) &+ f &+ e &+ k &+ w[index]
        (e, d, c, b, a) = (d, c, rotated(b, by: 30), a, next)
      }
      h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
    }
    return [h.0, h.1, h.2, h.3, h.4].flatMap { word in
      [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
    }
  }

  private static func rotated(_ value: UInt32, by count: UInt32) -> UInt32 {
    value << count | value >> (32 - count)
  }
}
