import Basics
import Foundation
import Transfer

#if canImport(Glibc)
  import Glibc
#endif

/// One feed document as the server sent it (content-encoding undone), held so the library can
/// keep a copy: in memory, or in the temporary file a large body was spooled to.
public struct FeedDocument: Sendable {
  /// Where it finally came from, after redirects: its relative links resolve against it.
  public let url: String
  private let body: Data
  private let spooled: SpooledBody?

  package init(url: String, body: Data, spooled: SpooledBody?) {
    self.url = url
    self.body = body
    self.spooled = spooled
  }

  /// Its size in bytes.
  public var count: Int { spooled?.count ?? body.count }

  /// Hands the bytes to `consume` in order, in chunks of at most 1 MiB.
  public func read(_ consume: (UnsafeRawBufferPointer) -> Void) throws {
    let chunk = 1 << 20
    guard let spooled else {
      body.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
          let end = min(offset + chunk, bytes.count)
          consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
          offset = end
        }
      }
      return
    }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
    defer { buffer.deallocate() }
    var offset = 0
    while true {
      let count = pread(spooled.descriptor, buffer.baseAddress, chunk, off_t(offset))
      if count < 0 {
        if errno == EINTR { continue }
        throw FeedLoadError.spoolUnreadable(source: url, reason: String(cString: strerror(errno)))
      }
      if count == 0 { return }
      consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      offset += count
    }
  }
}
