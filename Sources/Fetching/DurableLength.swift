import Synchronization

/// How much of one partial file is written, and how much of it the download's row vouches for
/// as synced (its `durableBytes`): shared by the thread that writes the file, the one that
/// syncs it at checkpoints (`Checkpoints`) and the download's own task.
///
/// The rule it keeps: the row never vouches for bytes that are not the file's synced bytes.
/// A checkpoint records a length only if no byte was dropped since it was measured, and bytes
/// the row vouches for are dropped only once the row says so durably: written over unsynced,
/// they would be taken for synced ones after a power cut. Both happen under one lock; the
/// writes themselves never take it.
package final class DurableLength: Sendable {
  /// The file's length as written (bytes still in the write buffer not counted).
  private let written = Atomic<Int64>(0)
  private let state = Mutex(State())

  private struct State {
    /// What the row vouches for.
    var claimed: Int64 = 0
    /// Counts the times bytes were dropped: a checkpoint measured before one records nothing.
    var generation = 0
    /// When the last checkpoint was measured (or this was made, before the first).
    var marked = ContinuousClock.now
    var everMarked = false
  }

  package init() {}

  /// A length to sync, and what must not have changed for it to be recorded.
  package struct Mark: Sendable {
    package var length: Int64
    fileprivate var generation: Int
  }

  /// How much is written past what the row vouches for, how long ago the last checkpoint was
  /// measured (or this was made), and whether one ever was.
  package var sinceCheckpoint: (unclaimed: Int64, elapsed: Duration, first: Bool) {
    let length = written.load(ordering: .acquiring)
    return state.withLock {
      (length - $0.claimed, ContinuousClock.now - $0.marked, !$0.everMarked)
    }
  }

  /// What the row vouches for now.
  package var claimed: Int64 { state.withLock { $0.claimed } }

  func wrote(length: Int64) {
    written.store(length, ordering: .releasing)
  }

  /// What a checkpoint syncs: measured before the sync, so every byte of it is covered.
  package func mark() -> Mark {
    state.withLock { state in
      state.marked = .now
      state.everMarked = true
      return Mark(length: written.load(ordering: .acquiring), generation: state.generation)
    }
  }

  /// Records `mark` as synced (`record` writes it to the row) if no byte was dropped since it
  /// was taken and it adds to what the row vouches for; false when it was not recorded.
  package func record(_ mark: Mark, _ record: (Int64) throws -> Void) rethrows -> Bool {
    try state.withLock { state in
      guard state.generation == mark.generation, mark.length > state.claimed else { return false }
      try record(mark.length)
      state.claimed = mark.length
      return true
    }
  }

  /// The row vouches for `length` (what it said when the download began).
  package func claim(_ length: Int64) {
    state.withLock { $0.claimed = length }
  }

  /// Runs `drop`, which cuts the file to `length`, once no checkpoint measured before can be
  /// recorded and the row no longer vouches for more (`lower` writes that durably, and is
  /// only asked when it does). Without `lower`, a drop below what the row vouches for is
  /// refused: false, and the file is left as it is.
  func dropping(
    to length: Int64, lower: ((Int64) throws -> Void)?, _ drop: () throws -> Void
  ) throws -> Bool {
    try state.withLock { state in
      if length < state.claimed {
        guard let lower else { return false }
        state.generation += 1
        try lower(length)
        state.claimed = length
      } else {
        state.generation += 1
      }
      try drop()
      written.store(length, ordering: .releasing)
      return true
    }
  }
}
