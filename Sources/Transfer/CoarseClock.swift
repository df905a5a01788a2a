#if canImport(Glibc)
  import Glibc
#endif

/// The time the stall watchdog keeps (`CurlTransfer`), in milliseconds of the system's coarse
/// monotonic clock: read at every header line, body burst and progress call of every transfer,
/// on the transfer thread, where `ContinuousClock.now` and its `Duration` arithmetic were 2%
/// of that thread's time in a warm sync. The watchdog counts seconds; this clock moves in steps of
/// a few milliseconds, and reading it costs no more than a memory read.
enum CoarseClock {
  /// Milliseconds since some fixed moment (boot); only differences mean anything.
  static func milliseconds() -> Int64 {
    var now = timespec()
    #if os(Linux)
      clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
    #else
      clock_gettime(CLOCK_MONOTONIC, &now)
    #endif
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }
}
