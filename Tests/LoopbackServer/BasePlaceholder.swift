import Foundation
import Glibc

/// `{{base}}` in served feeds, replaced by the server's base URL so fixtures work on any port.
enum BasePlaceholder {
  static let token = Array("{{base}}".utf8)

  /// `data` with every `{{base}}` replaced by `base`. Scans with memchr: feeds can be ~100 MB.
  static func replace(in data: Data, with base: String) -> Data {
    let replacement = Data(base.utf8)
    var output = Data()
    output.reserveCapacity(data.count)
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      guard let start = bytes.baseAddress else { return }
      var copied = 0
      var cursor = 0
      while cursor < bytes.count,
        let hit = memchr(start + cursor, Int32(UInt8(ascii: "{")), bytes.count - cursor)
      {
        let at = UnsafeRawPointer(hit) - start
        if at + token.count <= bytes.count, memcmp(hit, token, token.count) == 0 {
          output.append(start.assumingMemoryBound(to: UInt8.self) + copied, count: at - copied)
          output.append(replacement)
          copied = at + token.count
          cursor = copied
        } else {
          cursor = at + 1
        }
      }
      output.append(start.assumingMemoryBound(to: UInt8.self) + copied, count: bytes.count - copied)
    }
    return output
  }
}
