import Fetching
import Foundation
import Synchronization
import XCTest

/// Work that waits for its server's turn as a value: items come out in the order they went in,
/// past those whose server is at its share, each with its server's place taken until given
/// back; whoever adds waits while the queue is full, so it runs only that far ahead. No timing:
/// the tests take and give back places when they choose.
final class HostQueueTests: XCTestCase {
  /// Takes the next item and checks it is `expected` from `host`.
  private func take(
    _ queue: HostQueue<Int>, expecting expected: Int, from host: String,
    file: StaticString = #filePath, line: UInt = #line
  ) async {
    let next = await queue.next()
    XCTAssertEqual(next?.item, expected, file: file, line: line)
    XCTAssertEqual(next?.host, host, file: file, line: line)
  }

  func testItemsComeInOrderPastAServerAtItsShare() async {
    let queue = HostQueue<Int>(total: 3, perHost: 1, capacity: 10, multiplexes: { _ in false })
    for (item, host) in [(1, "a"), (2, "a"), (3, "b"), (4, "a"), (5, "c")] {
      await queue.add(item, host: host)
    }
    await take(queue, expecting: 1, from: "a")
    await take(queue, expecting: 3, from: "b")
    await take(queue, expecting: 5, from: "c")
    // The total is reached: the next waits for a place, and a's goes to a's next item.
    let waiting = Task { await queue.next() }
    queue.release(host: "a")
    let next = await waiting.value
    XCTAssertEqual(next?.item, 2)
    queue.release(host: "b")
    queue.release(host: "c")
    let blocked = Task { await queue.next() }
    queue.release(host: "a")
    let last = await blocked.value
    XCTAssertEqual(last?.item, 4, "a's last item waited for a's place, not for any place")
  }

  func testAddWaitsWhileTheQueueIsFull() async {
    let queue = HostQueue<Int>(total: 4, perHost: 4, capacity: 2, multiplexes: { _ in false })
    let added = Mutex(0)
    let producer = Task {
      for item in 0..<5 {
        await queue.add(item, host: "h\(item)")
        added.withLock { $0 += 1 }
      }
      queue.close()
    }
    // The third add has nothing to take its place: it waits, however often the producer runs.
    while added.withLock({ $0 }) < 2 { await Task.yield() }
    for _ in 0..<200 { await Task.yield() }
    XCTAssertEqual(added.withLock { $0 }, 2, "no more than the capacity waits")
    var taken: [Int] = []
    while let next = await queue.next() {
      taken.append(next.item)
      XCTAssertLessThanOrEqual(added.withLock { $0 } - taken.count, 2)
      queue.release(host: next.host)
    }
    await producer.value
    XCTAssertEqual(taken, [0, 1, 2, 3, 4], "every item came out once, in order")
  }

  func testAClosedQueueHandsOutWhatItHasThenNil() async {
    let queue = HostQueue<Int>(total: 1, perHost: 1, capacity: 4, multiplexes: { _ in false })
    await queue.add(1, host: "a")
    await queue.add(2, host: "a")
    queue.close()
    await take(queue, expecting: 1, from: "a")
    let second = Task { await queue.next() }
    queue.release(host: "a")
    let next = await second.value
    XCTAssertEqual(next?.item, 2)
    queue.release(host: "a")
    let end = await queue.next()
    XCTAssertNil(end)
  }

  /// A server seen to answer over HTTP/2 takes its larger share as soon as that is known.
  func testAMultiplexedServerTakesItsLargerShare() async {
    let known = Mutex<Set<String>>([])
    let queue = HostQueue<Int>(
      total: 8, perHost: 1, perMultiplexedHost: 3, capacity: 8,
      multiplexes: { host in known.withLock { $0.contains(host) } })
    for item in 1...4 { await queue.add(item, host: "h2") }
    await take(queue, expecting: 1, from: "h2")
    let second = Task { await queue.next() }
    known.withLock { _ = $0.insert("h2") }
    queue.admitWaiting()
    let next = await second.value
    XCTAssertEqual(next?.item, 2)
    await take(queue, expecting: 3, from: "h2")
    let fourth = Task { await queue.next() }
    queue.release(host: "h2")
    let last = await fourth.value
    XCTAssertEqual(last?.item, 4, "three at once, no more")
  }
}
