import Foundation
import Synchronization

/// Work that many tasks hand in and that is done a round at a time, on a thread of its own:
/// each round takes everyone who came while the one before ran (a group commit). A caller
/// waits for its round and gets its own answer. One alone finds no round running and starts
/// one at once; many arriving together pay for one round, not one each.
///
/// Rounds run on a plain thread, one of those `ParallelFlush` keeps, because the work blocks (on
/// the disk, on the library's one writer): the cooperative pool is only as wide as the cores.
package final class Rounds<Request: Sendable, Answer: Sendable>: Sendable {
  private struct Waiting: Sendable {
    var request: Request
    var answer: CheckedContinuation<Answer, any Error>
  }

  private struct State {
    var waiting: [Waiting] = []
    var running = false
  }

  private let state = Mutex(State())
  /// One round: an answer for each request, in their order.
  private let perform: @Sendable ([Request]) -> [Result<Answer, any Error>]

  package init(_ perform: @escaping @Sendable ([Request]) -> [Result<Answer, any Error>]) {
    self.perform = perform
  }

  /// Waits for `request`'s round and returns its answer.
  package func submit(_ request: Request) async throws -> Answer {
    try await withCheckedThrowingContinuation { answer in
      let starts = state.withLock { state in
        state.waiting.append(Waiting(request: request, answer: answer))
        if state.running { return false }
        state.running = true
        return true
      }
      if starts { ParallelFlush.detach { self.runRounds() } }
    }
  }

  /// Rounds until nobody waits.
  private func runRounds() {
    while true {
      let round = state.withLock { state in
        defer { state.waiting = [] }
        if state.waiting.isEmpty { state.running = false }
        return state.waiting
      }
      if round.isEmpty { return }
      let answers = perform(round.map { $0.request })
      for (waiting, answer) in zip(round, answers) { waiting.answer.resume(with: answer) }
    }
  }
}
