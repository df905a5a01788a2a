import Basics
import Foundation
import XCTest

/// Rounds that gather: a round waits for requests said to be on their way, and for nothing
/// else. The patience here is an hour, so a round that waited when it should not have shows
/// as an answer that never came (the expectations' limits), not as a slower test.
final class RoundsTests: XCTestCase {
  private let batches = Locked<[[Int]]>([])
  /// Yielded to each time a round starts to wait.
  private let waits = AsyncStream<Void>.makeStream()

  private func rounds(enough: Int) -> Rounds<Int, Int> {
    let batches = batches
    let waits = waits.continuation
    let gathering = Rounds<Int, Int>.Gathering(
      patience: .seconds(3600), enough: enough, waits: { waits.yield() })
    return Rounds(gathering: gathering) { requests in
      batches.withLock { $0.append(requests) }
      return requests.map { .success($0 * 10) }
    }
  }

  /// Submits `request` in a task of its own; the expectation is met with its answer.
  private func submit(_ request: Int, to rounds: Rounds<Int, Int>) -> XCTestExpectation {
    let answered = expectation(description: "the answer to \(request)")
    Task {
      let answer = try await rounds.submit(request)
      XCTAssertEqual(answer, request * 10)
      answered.fulfill()
    }
    return answered
  }

  /// Waits until a round waits for what is on its way (failing, not hanging, if none does).
  private func gathering(_ rounds: Rounds<Int, Int>) async {
    let waited = expectation(description: "a round waits for what is on its way")
    let stream = waits.stream
    let listening = Task {
      for await _ in stream {
        waited.fulfill()
        return
      }
    }
    await fulfillment(of: [waited], timeout: 30)
    listening.cancel()
  }

  func testARoundWaitsForTheRequestsOnTheirWay() async {
    let rounds = rounds(enough: 64)
    rounds.announce(2)
    let first = submit(1, to: rounds)
    await gathering(rounds)
    XCTAssertEqual(batches.withLock { $0 }, [], "nothing was done before the second came")
    let second = submit(2, to: rounds)
    await fulfillment(of: [first, second], timeout: 30)
    rounds.withdraw()
    rounds.withdraw()
    XCTAssertEqual(batches.withLock { $0 }, [[1, 2]], "one round for both")
  }

  func testALoneRequestIsNotHeldUp() async {
    let rounds = rounds(enough: 64)
    await fulfillment(of: [submit(1, to: rounds)], timeout: 30)
    rounds.announce(1)
    await fulfillment(of: [submit(2, to: rounds)], timeout: 30)
    rounds.withdraw()
    XCTAssertEqual(batches.withLock { $0 }, [[1], [2]])
  }

  func testOneThatLeavesWithoutARequestLetsTheRoundGo() async {
    let rounds = rounds(enough: 64)
    rounds.announce(2)
    let first = submit(1, to: rounds)
    await gathering(rounds)
    rounds.withdraw()
    await fulfillment(of: [first], timeout: 30)
    rounds.withdraw()
    XCTAssertEqual(batches.withLock { $0 }, [[1]])
  }

  func testEnoughWaitingGoWhateverIsStillOnItsWay() async {
    let rounds = rounds(enough: 2)
    rounds.announce(5)
    let first = submit(1, to: rounds)
    await gathering(rounds)
    let second = submit(2, to: rounds)
    await fulfillment(of: [first, second], timeout: 30)
    XCTAssertEqual(batches.withLock { $0 }, [[1, 2]])
    rounds.withdraw()
    rounds.withdraw()
  }

  func testExpectingCountsTheCallerUntilItsBodyEnds() async throws {
    let rounds = rounds(enough: 64)
    let leave = AsyncStream<Void>.makeStream()
    let entered = AsyncStream<Void>.makeStream()
    // A caller that is on its way and leaves without a request once told to.
    let other = Task {
      await rounds.expecting {
        entered.continuation.yield()
        for await _ in leave.stream { break }
      }
    }
    for await _ in entered.stream { break }
    rounds.announce(1)
    let first = submit(1, to: rounds)
    await gathering(rounds)
    leave.continuation.yield()
    await fulfillment(of: [first], timeout: 30)
    await other.value
    rounds.withdraw()
    XCTAssertEqual(batches.withLock { $0 }, [[1]])
  }
}
