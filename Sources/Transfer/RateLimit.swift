import Basics
import Synchronization

/// A bandwidth budget shared by every transfer that carries it (`--limit-rate`).
///
/// How it is shared, in two layers:
/// - libcurl limits each easy handle on its own (`CURLOPT_MAX_RECV_SPEED_LARGE`), so the
///   transfer thread gives each running transfer of one budget an equal part,
///   `bytesPerSecond / running`, and re-divides whenever one of them starts or ends (see
///   `TransferEngine.rebalance`); a transfer that finishes early hands its part to the others.
/// - libcurl 7.88 overshoots its own limit on a fast link (it reads up to 100 buffers per
///   turn and restarts its averaging window every 3 s: `curl --limit-rate 500k` fetched 5 MB
///   from loopback in 2.6 s here). So the budget is also a token bucket that every transfer's
///   received bytes are charged to: a transfer that finds it spent pauses
///   (`CURL_WRITEFUNC_PAUSE`) until the bytes already taken would have arrived at the rate.
///   Idle time earns no credit, so a run never takes more than the rate times its duration
///   plus one curl buffer.
public final class RateLimit: Sendable, Equatable {
  public let bytesPerSecond: Int64
  /// When the bytes charged so far would have finished arriving at the rate.
  private let paidUntil = Mutex<ContinuousClock.Instant?>(nil)

  public init(bytesPerSecond: Int64) {
    self.bytesPerSecond = max(1, bytesPerSecond)
  }

  /// One budget is one object: two limits of the same size are still two budgets.
  public static func == (lhs: RateLimit, rhs: RateLimit) -> Bool { lhs === rhs }

  /// Nil when more bytes may be taken now, else when they may.
  package func spentUntil() -> ContinuousClock.Instant? {
    let now = ContinuousClock.now
    return paidUntil.withLock { until in until.flatMap { $0 > now ? $0 : nil } }
  }

  package func charge(_ bytes: Int) {
    let cost = Duration.seconds(Double(bytes) / Double(bytesPerSecond))
    let now = ContinuousClock.now
    paidUntil.withLock { until in until = max(until ?? now, now) + cost }
  }

  /// curl's receive buffer under this budget: small enough that one buffer is a fraction of a
  /// second's worth, so the bucket's granularity stays fine.
  package var bufferSize: Int {
    Int(min(512 * 1_024, max(1_024, bytesPerSecond / 8)))
  }
}
