import CZlib
import Foundation

/// gzip in memory through zlib: the server's gzip faults, and tests that read them back.
public enum Gzip {
  /// The gzip file format (header, deflate stream, CRC trailer) of `data`; nil if zlib fails.
  public static func compress(_ data: Data) -> Data? {
    var stream = z_stream()
    guard czlib_deflate_init_gzip(&stream) == Z_OK else { return nil }
    defer { deflateEnd(&stream) }
    let capacity = Int(deflateBound(&stream, uLong(data.count))) + 32
    var output = Data(count: capacity)
    let result: Int32 = data.withUnsafeBytes { input in
      output.withUnsafeMutableBytes { out in
        stream.next_in = UnsafeMutablePointer(
          mutating: input.bindMemory(to: Bytef.self).baseAddress)
        stream.avail_in = uInt(input.count)
        stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
        stream.avail_out = uInt(out.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard result == Z_STREAM_END else { return nil }
    output.count = Int(stream.total_out)
    return output
  }

  /// The original bytes of a gzip stream; nil if `data` is not complete, valid gzip.
  public static func decompress(_ data: Data) -> Data? {
    var stream = z_stream()
    guard czlib_inflate_init_gzip(&stream) == Z_OK else { return nil }
    defer { inflateEnd(&stream) }
    var output = Data()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    let finished: Bool = data.withUnsafeBytes { input in
      stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
      stream.avail_in = uInt(input.count)
      while true {
        let (status, produced) = chunk.withUnsafeMutableBufferPointer { out in
          stream.next_out = out.baseAddress
          stream.avail_out = uInt(out.count)
          let status = inflate(&stream, Z_NO_FLUSH)
          return (status, out.count - Int(stream.avail_out))
        }
        output.append(contentsOf: chunk[0..<produced])
        if status == Z_STREAM_END { return true }
        if status != Z_OK { return false }
        if produced == 0 && stream.avail_in == 0 { return false }
      }
    }
    return finished ? output : nil
  }
}
