import CZlib
import Foundation
import Model

/// A document kept gzip-compressed: the library's copies of feeds. It is compressed from the
/// chunks it is handed and inflated chunk by chunk into whatever reads it, so neither side
/// holds the whole uncompressed document (a 20,000-episode feed is tens of MB) in memory.
public struct CompressedDocument: Sendable, Equatable {
  /// The gzip file format (header, deflate stream, CRC-32 and length trailer): `zcat` reads
  /// it, and a damaged copy fails its CRC instead of parsing as a shorter feed.
  public let data: Data

  /// Hands the document over in chunks, in order, once per call.
  public typealias Chunks = (_ consume: (UnsafeRawBufferPointer) -> Void) throws -> Void

  /// zlib's fastest level: `make bench`'s 20,000-episode feed (93 MB) compresses 6.5:1 at it
  /// in about the CPU time its parse takes (0.4 to 0.6 s against 0.45 s); level 6 made it a
  /// third smaller again at 1.7 times the time.
  package static let level: Int32 = 1

  /// Bytes as they were stored; `inflate` checks them.
  package init(data: Data) {
    self.data = data
  }

  /// Compresses what `chunks` hands over: `expectedBytes` of it, when known. A small document
  /// gets a window and match state its own size: zlib's full ones (256 KiB, and a 64 KiB table
  /// cleared at the start) would cost a feed of a few items more than compressing it.
  package init(compressing chunks: Chunks, expectedBytes: Int? = nil) throws {
    var stream = z_stream()
    // A window of at least the document (2^9 to 2^15 bytes), and match state to go with it.
    let windowBits =
      expectedBytes.map { bytes in
        max(9, min(15, Int32(Int.bitWidth - max(1, bytes).leadingZeroBitCount)))
      } ?? 15
    let memLevel = max(1, min(8, windowBits - 7))
    guard czlib_deflate_init_gzip_sized(&stream, Self.level, windowBits, memLevel) == Z_OK else {
      throw KeptFeedError.compression("zlib could not start")
    }
    defer { deflateEnd(&stream) }
    var output = Data()
    let windowSize = min(64 << 10, Int(deflateBound(&stream, uLong(expectedBytes ?? (64 << 10)))))
    let window = UnsafeMutablePointer<Bytef>.allocate(capacity: windowSize)
    defer { window.deallocate() }
    var failure: Int32?
    /// Runs deflate over what is in `stream.next_in`, appending what it makes to `output`.
    func pump(_ flush: Int32) {
      repeat {
        stream.next_out = window
        stream.avail_out = uInt(windowSize)
        let status = deflate(&stream, flush)
        if status == Z_STREAM_ERROR {
          failure = status
          return
        }
        output.append(window, count: windowSize - Int(stream.avail_out))
      } while stream.avail_out == 0
    }
    try chunks { chunk in
      guard failure == nil, let base = chunk.baseAddress, chunk.count > 0 else { return }
      stream.next_in = UnsafeMutablePointer(
        mutating: base.assumingMemoryBound(to: Bytef.self))
      stream.avail_in = uInt(chunk.count)
      pump(Z_NO_FLUSH)
    }
    if failure == nil { pump(Z_FINISH) }
    if let failure { throw KeptFeedError.compression("zlib error \(failure)") }
    data = output
  }

  /// Compresses `document`, held in memory.
  package init(compressing document: Data) throws {
    try self.init { consume in
      document.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
          let end = min(offset + (1 << 20), bytes.count)
          consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
          offset = end
        }
      }
    }
  }

  /// The document, inflated into `consume` in chunks of at most 64 KiB. Throws
  /// `KeptFeedError.damaged` when the bytes are not one complete, intact gzip stream, after
  /// `consume` may have had part of the document.
  package func inflate(into consume: (UnsafeRawBufferPointer) -> Void) throws {
    var stream = z_stream()
    guard czlib_inflate_init_gzip(&stream) == Z_OK else {
      throw KeptFeedError.compression("zlib could not start")
    }
    defer { inflateEnd(&stream) }
    let window = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
    defer { window.deallocate() }
    let status: Int32 = data.withUnsafeBytes { input in
      stream.next_in = UnsafeMutablePointer(
        mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
      stream.avail_in = uInt(input.count)
      while true {
        stream.next_out = window.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(window.count)
        let status = CZlib.inflate(&stream, Z_NO_FLUSH)
        let produced = window.count - Int(stream.avail_out)
        if produced > 0 { consume(UnsafeRawBufferPointer(rebasing: window[0..<produced])) }
        if status != Z_OK { return status }
        // Out of input before the stream's end: a copy cut short.
        if produced == 0 && stream.avail_in == 0 { return Z_BUF_ERROR }
      }
    }
    guard status == Z_STREAM_END, stream.avail_in == 0 else {
      throw KeptFeedError.damaged(
        path: nil,
        reason: status == Z_STREAM_END
          ? "bytes after the document" : "the document is cut short or corrupt")
    }
  }
}
