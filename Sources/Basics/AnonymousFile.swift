import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A read-write temporary file without a name: it is unlinked the moment it is made, so it
/// goes away with its descriptor whatever happens to the process. Large feeds and their show
/// notes wait in one instead of in memory.
package enum AnonymousFile {
  /// The open descriptor, or nil when the temporary directory takes no file. For the moment
  /// between its making and its unlinking, the file is `<prefix>-<owner>-XXXXXX.tmp`
  /// (`TemporaryName`): a power cut just then leaves a name a sweep can judge.
  package static func make(prefix: String, in directory: String = NSTemporaryDirectory()) -> Int32?
  {
    var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString)
    template.removeLast()
    template += Array("\(prefix)-\(ProcessOwner.current.name)-XXXXXX.tmp".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let path = buffer.baseAddress else { return -1 }
      let descriptor = mkstemps(path, 4)
      if descriptor >= 0 { unlink(path) }
      return descriptor
    }
    return descriptor >= 0 ? descriptor : nil
  }

  /// Writes all of `bytes` at `offset`; false on an error (a full disk).
  package static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    -> Bool
  {
    guard let base = bytes.baseAddress else { return true }
    var done = 0
    while done < bytes.count {
      let count = pwrite(descriptor, base + done, bytes.count - done, off_t(offset + done))
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      done += count
    }
    return true
  }
}
