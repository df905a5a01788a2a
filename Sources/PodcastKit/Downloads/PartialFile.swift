import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The `.part` file one download streams into, opened for the whole download and locked
/// (`flock`) so two processes never write the same episode at once.
final class PartialFile {
  let path: String
  private let descriptor: Int32

  /// Opens (creating) `path` and takes its lock. Returns nil when another process holds it.
  init?(path: String) throws {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw DownloadError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      close(descriptor)
      return nil
    }
    self.path = path
    self.descriptor = descriptor
  }

  deinit {
    close(descriptor)
  }

  var size: Int64 {
    var info = stat()
    return fstat(descriptor, &info) == 0 ? Int64(info.st_size) : 0
  }

  /// Starts over (the server sent the whole file, or the old bytes belong to another version).
  func truncate(to length: Int64) throws {
    guard ftruncate(descriptor, off_t(length)) == 0, lseek(descriptor, off_t(length), SEEK_SET) >= 0
    else {
      throw writeError()
    }
  }

  func seekToEnd() -> Int64 {
    Int64(lseek(descriptor, 0, SEEK_END))
  }

  func append(_ bytes: UnsafeRawBufferPointer) throws {
    guard var base = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      let written = write(descriptor, base, remaining)
      if written < 0 {
        if errno == EINTR { continue }
        throw writeError()
      }
      remaining -= written
      base += written
    }
  }

  /// Data reaches the disk before the rename makes the file visible, so a power cut can never
  /// leave a complete-looking but empty episode.
  func sync() throws {
    guard fsync(descriptor) == 0 else { throw writeError() }
  }

  func readPrefix(_ count: Int) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
    return read > 0 ? Array(buffer.prefix(read)) : []
  }

  /// EFBIG (a `ulimit -f`) keeps its own words: calling it a full disk would send the user
  /// looking for space that is there.
  private func writeError() -> DownloadError {
    errno == ENOSPC || errno == EDQUOT
      ? .diskFull(path: path)
      : .cannotWrite(path: path, reason: String(cString: strerror(errno)))
  }
}
