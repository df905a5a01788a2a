import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a running `podcast` is doing, read from /proc: events a test waits on instead of
/// sleeping.
extension RunningPodcast {
  /// Whether it still runs (its exit is an event too: a wait for "N bytes or done" ends on it).
  var isRunning: Bool { process.isRunning }

  /// Whether it is blocked waiting for a `flock(2)` another process holds (`sync --wait`
  /// queued behind a running sync): /proc/locks lists such a waiter with "->".
  var isWaitingForALock: Bool {
    // Read to its end: procfs gives the file no size, and `String(contentsOfFile:)` then
    // reads one page, which cuts the list off once the machine holds more locks than fit
    // (every process with a SQLite database open holds some).
    let data = FileHandle(forReadingAtPath: "/proc/locks").flatMap { try? $0.readToEnd() }
    let locks = String(decoding: data ?? Data(), as: UTF8.self)
    return locks.split(separator: "\n").contains { line in
      let fields = line.split(separator: " ")
      return fields.count > 5 && fields[1] == "->" && fields[2] == "FLOCK"
        && fields[5] == Substring(String(pid))
    }
  }

  /// The sizes of the files it holds open whose path starts with `directory`, including the
  /// nameless ones (`O_TMPFILE`, shown as `directory/#inode (deleted)`).
  func openFileSizes(in directory: String) -> [Int] {
    let fds = "/proc/\(pid)/fd"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []
    return names.compactMap { name in
      let link = fds + "/" + name
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link),
        target.hasPrefix(directory + "/")
      else { return nil }
      var info = stat()
      guard stat(link, &info) == 0 else { return nil }
      return Int(info.st_size)
    }
  }
}
