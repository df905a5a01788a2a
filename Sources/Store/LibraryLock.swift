import Basics
import Foundation
import Model
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive `flock(2)` on a file, so only one `sync` works on a library at a time.
/// The kernel drops the lock when the process dies, so a crashed run never leaves it stuck.
public final class LibraryLock: Sendable {
  public let path: String
  private let descriptor: Mutex<Int32?>

  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = Mutex(descriptor)
  }

  deinit {
    release()
  }

  /// Takes the library's sync lock. With `wait` false, throws `LibraryError.busy` at once
  /// when another process (or another `LibraryLock` in this one) holds it.
  public static func acquire(paths: LibraryPaths, wait: Bool) throws -> LibraryLock {
    try acquire(file: paths.lockFile, wait: wait)
  }

  /// Locks any file; the store uses this for its own short migration lock.
  package static func acquire(file: String, wait: Bool) throws -> LibraryLock {
    let descriptor = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw LibraryError.cannotLock(path: file, reason: String(cString: strerror(errno)))
    }
    let operation = LOCK_EX | (wait ? 0 : LOCK_NB)
    while flock(descriptor, operation) != 0 {
      let code = errno
      if code == EINTR { continue }
      close(descriptor)
      if code == EWOULDBLOCK { throw LibraryError.busy }
      throw LibraryError.cannotLock(path: file, reason: String(cString: strerror(code)))
    }
    recordOwner(descriptor)
    return LibraryLock(path: file, descriptor: descriptor)
  }

  /// The pid the lock's holder wrote into the lock file (`recordOwner`); nil when it names
  /// none. Only a hint: the holder may have ended since.
  public static func holder(paths: LibraryPaths) -> Int32? {
    guard let text = try? String(contentsOfFile: paths.lockFile, encoding: .utf8) else {
      return nil
    }
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Lets a person looking at the lock file see which process holds it.
  private static func recordOwner(_ descriptor: Int32) {
    let text = Array("\(getpid())\n".utf8)
    guard ftruncate(descriptor, 0) == 0 else { return }
    _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
  }

  /// Gives the lock up; safe to call more than once.
  public func release() {
    descriptor.withLock { descriptor in
      guard let open = descriptor else { return }
      flock(open, LOCK_UN)
      close(open)
      descriptor = nil
    }
  }
}
