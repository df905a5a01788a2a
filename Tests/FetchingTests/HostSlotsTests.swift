import Fetching
import Foundation
import Synchronization
import XCTest

/// The slots that keep a run from hammering one server: never more than `perHost` at once to
/// a host and `total` overall, a free slot goes to whoever can use it (a busy host does not
/// hold up an idle one), and every waiter gets its turn. No timing: the tests hold slots for
/// as long as they look and let go when they choose.
final class HostSlotsTests: XCTestCase {
  /// Tasks that acquired a slot, each holding it until the test lets it go.
  /// What the holders look like at one moment, for `Holders.until`.
  private struct Snapshot: Sendable {
    var current: [String: Int]
    var finished: Int
    var total: Int { current.values.reduce(0, +) }
    private var snapshot: Snapshot { Snapshot(current: current, finished: finished) }
  }

  private actor Holders {
    private(set) var current: [String: Int] = [:]
    private(set) var peakPerHost: [String: Int] = [:]
    private(set) var peakTotal = 0
    private(set) var finished = 0
    private var holding: [String: [CheckedContinuation<Void, Never>]] = [:]
    typealias Watcher = (
      condition: @Sendable (Snapshot) -> Bool, resume: CheckedContinuation<Void, Never>
    )
    private var watchers: [Watcher] = []

    var total: Int { current.values.reduce(0, +) }
    private var snapshot: Snapshot { Snapshot(current: current, finished: finished) }

    /// Called with the slot held: counts it, then waits to be let go.
    func hold(_ host: String) async {
      current[host, default: 0] += 1
      peakPerHost[host] = max(peakPerHost[host, default: 0], current[host, default: 0])
      peakTotal = max(peakTotal, total)
      changed()
      await withCheckedContinuation { holding[host, default: []].append($0) }
      current[host, default: 0] -= 1
    }

    func done() {
      finished += 1
      changed()
    }

    /// Lets one holder of `host` go on to release its slot; false when none holds one.
    func letOneGo(_ host: String) -> Bool {
      guard var waiting = holding[host], !waiting.isEmpty else { return false }
      waiting.removeFirst().resume()
      holding[host] = waiting
      return true
    }

    /// Returns once `condition` holds (checked at each change).
    func until(_ condition: @escaping @Sendable (Snapshot) -> Bool) async {
      if condition(snapshot) { return }
      await withCheckedContinuation { watchers.append((condition, $0)) }
    }

    /// Counts a slot held for a moment (a few hops through the scheduler) and gives it back.
    func holdBriefly(_ host: String) async {
      current[host, default: 0] += 1
      peakPerHost[host] = max(peakPerHost[host, default: 0], current[host, default: 0])
      peakTotal = max(peakTotal, total)
      for _ in 0..<3 { await Task.yield() }
      current[host, default: 0] -= 1
      finished += 1
    }

    private func changed() {
      var still: [Watcher] = []
      for watcher in watchers {
        if watcher.condition(snapshot) { watcher.resume.resume() } else { still.append(watcher) }
      }
      watchers = still
    }
  }

  /// Starts a task that takes a slot for `host`, holds it until let go, and releases it.
  private func start(_ host: String, slots: HostSlots, holders: Holders) -> Task<Void, Never> {
    Task {
      await slots.acquire(host: host)
      await holders.hold(host)
      await slots.release(host: host)
      await holders.done()
    }
  }

  /// Lets `count` holders go one at a time, those of `first` while it has any, each only once
  /// the one before has finished.
  private func letGoOneAtATime(_ count: Int, holders: Holders, first: String, then other: String)
    async
  {
    for released in 1...count {
      await holders.until { $0.total > 0 }
      let host = await holders.current[first, default: 0] > 0 ? first : other
      let went = await holders.letOneGo(host)
      XCTAssertTrue(went)
      await holders.until { $0.finished == released }
    }
  }

  func testNoHostGetsMoreThanItsShareAndTheRunNoMoreThanItsTotal() async {
    let slots = HostSlots(total: 3, perHost: 2)
    let holders = Holders()
    let hosts = ["a", "a", "a", "a", "b", "b"]
    let tasks = hosts.map { start($0, slots: slots, holders: holders) }

    await holders.until { $0.total == 3 }
    let first = await holders.current
    XCTAssertLessThanOrEqual(first["a", default: 0], 2, "\(first)")
    XCTAssertLessThanOrEqual(first["b", default: 0], 2, "\(first)")
    // Let them go one at a time, b first: as slots free up the waiting a's come in, up to
    // their share of two.
    await letGoOneAtATime(tasks.count, holders: holders, first: "b", then: "a")
    for task in tasks { await task.value }
    let peakA = await holders.peakPerHost["a"]
    let peakB = await holders.peakPerHost["b"]
    let peakTotal = await holders.peakTotal
    XCTAssertEqual(peakA, 2, "host a never had more than two at once, and did get two")
    XCTAssertLessThanOrEqual(peakB ?? 0, 2)
    XCTAssertEqual(peakTotal, 3)
    let finished = await holders.finished
    XCTAssertEqual(finished, 6, "every waiter got its turn")
  }

  /// A waiter for a host at its limit does not hold up one for a host with room.
  func testABusyHostDoesNotHoldUpAnIdleOne() async {
    let slots = HostSlots(total: 2, perHost: 1)
    let holders = Holders()
    await slots.acquire(host: "a")
    let secondA = start("a", slots: slots, holders: holders)
    let firstB = start("b", slots: slots, holders: holders)

    await holders.until { $0.current["b", default: 0] == 1 }
    let waitingA = await holders.current["a", default: 0]
    XCTAssertEqual(waitingA, 0, "a second transfer to a got in while the first held a's slot")

    await slots.release(host: "a")
    await holders.until { $0.current["a", default: 0] == 1 }
    _ = await holders.letOneGo("a")
    _ = await holders.letOneGo("b")
    await secondA.value
    await firstB.value
  }

  /// With the total reached, the slot a host gives back goes to a waiter that can use it,
  /// past one whose host is still at its own limit.
  func testAFreedSlotGoesToAWaiterThatCanUseIt() async {
    let slots = HostSlots(total: 2, perHost: 1)
    let holders = Holders()
    await slots.acquire(host: "a")
    await slots.acquire(host: "b")
    let anotherA = start("a", slots: slots, holders: holders)
    let c = start("c", slots: slots, holders: holders)

    await slots.release(host: "b")
    await holders.until { $0.current["c", default: 0] == 1 }
    let aHolders = await holders.current["a", default: 0]
    XCTAssertEqual(aHolders, 0, "a is still at its limit")

    _ = await holders.letOneGo("c")
    await c.value
    await slots.release(host: "a")
    await holders.until { $0.current["a", default: 0] == 1 }
    _ = await holders.letOneGo("a")
    await anotherA.value
  }

  /// A host that answered over HTTP/2 takes its larger share at once: the transfers waiting
  /// for it start without one of its own slots being given back; other hosts keep theirs.
  func testAMultiplexedHostTakesItsLargerShare() async {
    let known = Mutex<Set<String>>([])
    let slots = HostSlots(
      total: 8, perHost: 2, perMultiplexedHost: 5,
      multiplexes: { host in known.withLock { $0.contains(host) } })
    let holders = Holders()
    let tasks =
      (0..<6).map { _ in start("h2", slots: slots, holders: holders) }
      + (0..<3).map { _ in start("h1", slots: slots, holders: holders) }
    await holders.until { $0.current["h2", default: 0] == 2 && $0.current["h1", default: 0] == 2 }

    known.withLock { _ = $0.insert("h2") }
    await slots.admitWaiting()
    await holders.until { $0.current["h2", default: 0] == 5 }
    // Every h2 waiter that fits has started; the sixth waits for one of the five, and h1
    // stays at two.
    let now = await holders.current
    XCTAssertEqual(now["h1"], 2, "\(now)")
    await letGoOneAtATime(tasks.count, holders: holders, first: "h2", then: "h1")
    for task in tasks { await task.value }
    let peaks = await holders.peakPerHost
    XCTAssertEqual(peaks["h2"], 5)
    XCTAssertEqual(peaks["h1"], 2)
  }

  /// Many short transfers over a few hosts: all finish (no waiter is forgotten) within the
  /// limits.
  func testManyTransfersAllFinishWithinTheLimits() async {
    let slots = HostSlots(total: 4, perHost: 2)
    let counter = Holders()
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<60 {
        let host = "host\(index % 5)"
        group.addTask {
          await slots.acquire(host: host)
          await counter.holdBriefly(host)
          await slots.release(host: host)
        }
      }
    }
    let finished = await counter.finished
    let peakTotal = await counter.peakTotal
    let peaks = await counter.peakPerHost
    XCTAssertEqual(finished, 60)
    XCTAssertLessThanOrEqual(peakTotal, 4)
    XCTAssertTrue(peaks.values.allSatisfy { $0 <= 2 }, "\(peaks)")
  }

  /// Limits below one are one: the slots still admit work instead of blocking for ever.
  func testLimitsBelowOneStillAdmitOneAtATime() async {
    let slots = HostSlots(total: 0, perHost: 0)
    let holders = Holders()
    let first = start("a", slots: slots, holders: holders)
    let second = start("b", slots: slots, holders: holders)
    await holders.until { $0.total == 1 }
    let host = await holders.current["a", default: 0] == 1 ? "a" : "b"
    _ = await holders.letOneGo(host)
    await holders.until { $0.finished == 1 }
    await holders.until { $0.total == 1 }
    let total = await holders.total
    XCTAssertEqual(total, 1)
    _ = await holders.letOneGo(host == "a" ? "b" : "a")
    await first.value
    await second.value
    let peak = await holders.peakTotal
    XCTAssertEqual(peak, 1)
  }
}
