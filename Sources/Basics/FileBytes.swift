import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A small file's bytes, read with `open` and `read`: nil when there is no such file or it
/// cannot be read. Asking Foundation for a file that is not there builds an error object,
/// and a sync asks that of every podcast folder it touched (its `feed.xml`, most often none).
package enum FileBytes {
  package static func read(_ path: String) -> Data? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return nil }
      if count == 0 { return data }
      data.append(contentsOf: chunk[0..<count])
    }
  }
}
