import Dispatch
import Foundation
import Synchronization

/// Work that many tasks hand in and that is done a round at a time, on a thread of its own:
/// each round takes everyone who came while the one before ran (a group commit). A caller
/// waits for its round and gets its own answer. One alone finds no round running and starts
/// one at once; many arriving together pay for one round, not one each.
///
/// A round may also wait a little for requests it knows are on their way (`Gathering`): the
/// callers that may hand one in soon say so (`announce`, `expecting`), and a round that finds
/// fewer waiting than are coming waits for them, at most `Gathering.patience`. A round's cost
/// is mostly its own (a transaction, its pages written again, a thread woken), not its
/// requests': a 2,000-feed first sync wrote its records in rounds of two feeds and its
/// finished episodes in rounds of three or four; in rounds of eight and fourteen it took 18%
/// less CPU and 22% less time (docs/ARCHITECTURE.md). Nobody else coming, a round never waits: a
/// lone feed or episode is not held up.
///
/// Rounds run on a plain thread, one of those `ParallelFlush` keeps, because the work blocks (on
/// the disk, on the library's one writer): the cooperative pool is only as wide as the cores.
package final class Rounds<Request: Sendable, Answer: Sendable>: Sendable {
  /// How long a round waits for requests that are coming, and how many are enough for it not
  /// to wait for more.
  package struct Gathering: Sendable {
    package var patience: DispatchTimeInterval
    package var enough: Int
    /// Told each time a round starts to wait (tests wait for it).
    package var waits: (@Sendable () -> Void)?

    package init(
      patience: DispatchTimeInterval, enough: Int, waits: (@Sendable () -> Void)? = nil
    ) {
      self.patience = patience
      self.enough = max(1, enough)
      self.waits = waits
    }

    /// What the library's rounds take (`FeedRecords`, `FinishBatch`): 10 ms is a tenth of a
    /// round trip to a distant server and far below what a person notices, and 64 keeps a
    /// round's transaction short however many feeds or episodes are under way.
    package static var brief: Gathering { Gathering(patience: .milliseconds(10), enough: 64) }
  }

  private struct Waiting: Sendable {
    var request: Request
    var answer: CheckedContinuation<Answer, any Error>
  }

  private struct State {
    var waiting: [Waiting] = []
    var running = false
    /// Requests announced (`announce`, `expecting`) and not withdrawn: each is handed in or
    /// given up, soon.
    var coming = 0
    /// A round is waiting for those coming: whoever makes it ready signals `ready`.
    var roundWaits = false

    func isReady(enough: Int) -> Bool {
      waiting.count >= coming || waiting.count >= enough
    }
  }

  private let state = Mutex(State())
  private let gathering: Gathering?
  /// Signalled once for each time a gathering round was found ready by someone else.
  private let ready = DispatchSemaphore(value: 0)
  /// One round: an answer for each request, in their order.
  private let perform: @Sendable ([Request]) -> [Result<Answer, any Error>]

  /// `gathering`: how a round waits for requests on their way (nil: it never waits).
  package init(
    gathering: Gathering? = nil,
    _ perform: @escaping @Sendable ([Request]) -> [Result<Answer, any Error>]
  ) {
    self.gathering = gathering
    self.perform = perform
  }

  /// Waits for `request`'s round and returns its answer.
  package func submit(_ request: Request) async throws -> Answer {
    try await withCheckedThrowingContinuation { answer in
      let (starts, wakes) = state.withLock { state in
        state.waiting.append(Waiting(request: request, answer: answer))
        if state.running { return (false, takeReady(&state)) }
        state.running = true
        return (true, false)
      }
      if wakes { ready.signal() }
      if starts { ParallelFlush.detach { self.runRounds() } }
    }
  }

  /// Runs `body`, during which this caller counts as coming: a round that starts meanwhile
  /// waits for its request (or for it to leave without one), as `Gathering` allows.
  package func expecting<Value>(_ body: () async throws -> Value) async rethrows -> Value {
    announce()
    defer { withdraw() }
    return try await body()
  }

  /// From now on `count` requests count as coming, until `withdraw` is called for each
  /// (`expecting`, for callers whose part does not fit one closure).
  package func announce(_ count: Int = 1) {
    state.withLock { $0.coming += count }
  }

  /// Ends one `announce`d: its request is in, or will not come.
  package func withdraw() {
    let wakes = state.withLock { state in
      state.coming -= 1
      return takeReady(&state)
    }
    if wakes { ready.signal() }
  }

  /// Whether the gathering round is ready now; if so it is told (once) by the caller.
  private func takeReady(_ state: inout State) -> Bool {
    guard state.roundWaits, let gathering, state.isReady(enough: gathering.enough) else {
      return false
    }
    state.roundWaits = false
    return true
  }

  /// Rounds until nobody waits.
  private func runRounds() {
    while true {
      gather()
      let round = state.withLock { state in
        defer { state.waiting = [] }
        state.roundWaits = false
        if state.waiting.isEmpty { state.running = false }
        return state.waiting
      }
      if round.isEmpty { return }
      let answers = perform(round.map { $0.request })
      for (waiting, answer) in zip(round, answers) { waiting.answer.resume(with: answer) }
    }
  }

  /// Waits, at most `patience`, until those coming are in (or enough are) or have left.
  private func gather() {
    guard let gathering else { return }
    let deadline = DispatchTime.now() + gathering.patience
    while true {
      let waits = state.withLock { state in
        state.roundWaits = !state.waiting.isEmpty && !state.isReady(enough: gathering.enough)
        return state.roundWaits
      }
      guard waits else { return }
      gathering.waits?()
      // A signal left from a round that stopped waiting on its own only makes this one look
      // again, above.
      if ready.wait(timeout: deadline) == .timedOut { return }
    }
  }
}
