#if canImport(Glibc)
  import Glibc
#endif

/// Whether the process a pid was recorded for (in a download's row, in a temporary's name) is
/// still running.
public enum RunningProcess {
  /// One we may not signal (another user's) is running too.
  public static func isAlive(_ pid: Int32?) -> Bool {
    guard let pid, pid > 0 else { return false }
    return kill(pid, 0) == 0 || errno == EPERM
  }
}
