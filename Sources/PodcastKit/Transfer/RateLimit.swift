/// A bandwidth budget shared by every transfer that carries it (`--limit-rate`).
///
/// How it is shared: libcurl limits each easy handle on its own
/// (`CURLOPT_MAX_RECV_SPEED_LARGE`), so the transfer thread gives each running transfer of
/// one budget an equal part, `bytesPerSecond / running`, and re-divides whenever one of them
/// starts or ends (see `TransferEngine.rebalance`). A transfer that finishes early hands its
/// part to the others; the total never exceeds the budget by more than curl's own slack.
public final class RateLimit: Sendable, Equatable {
  public let bytesPerSecond: Int64

  public init(bytesPerSecond: Int64) {
    self.bytesPerSecond = max(1, bytesPerSecond)
  }

  /// One budget is one object: two limits of the same size are still two budgets.
  public static func == (lhs: RateLimit, rhs: RateLimit) -> Bool { lhs === rhs }
}
