import Basics
import Downloads
import Model

/// What one sync did: the plan it made, each download's result, what was pruned and what was
/// completed beside earlier episodes. Failures were said on stderr as they happened; this
/// keeps what the report and the exit status need.
public struct SyncOutcome: Sendable {
  /// How many subscriptions the run synced; none when the library has none.
  public var subscriptions = 0
  public var plan = SyncPlan()
  public var results: [DownloadResult] = []
  public var pruning = SyncPruner.Outcome()
  public var sideFiles = SideFileCompletion()
  /// False when the run's playlist could not be written.
  public var playlistWritten = true
  /// What the exchange with the library's sync-server account did; nil without one (the use
  /// case exchanges around the run and says so here).
  public var account: AccountExchangeReport?

  public init() {}

  public var pruned: [String] { pruning.removed }

  /// A feed, an episode, a prune, the `--playlist` file or the account's exchange failed: the
  /// run exits 1.
  public var failed: Bool {
    results.contains { if case .failed = $0.outcome { true } else { false } }
      || !plan.failedFeeds.isEmpty || !pruning.failures.isEmpty || !playlistWritten
      || account?.failed == true
  }
}
