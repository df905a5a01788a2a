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
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    // Read to the end whatever the size said: a file may grow while it is read.
    var data = Data(count: max(Int(info.st_size), 0) + 1)
    var count = 0
    while true {
      if count == data.count { data.count += max(4096, count) }
      let read = data.withUnsafeMutableBytes { buffer in
        Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
      }
      if read < 0 && errno == EINTR { continue }
      guard read >= 0 else { return nil }
      if read == 0 { break }
      count += read
    }
    data.count = count
    return data
  }
}
