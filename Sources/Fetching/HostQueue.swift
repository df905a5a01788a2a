import Basics
import Synchronization
import Transfer

/// Work waiting for its server's turn, kept as values until it can start: a task made for every
/// feed and every download at once would hold all their waiting frames, most of a large sync's
/// memory. `next` hands out items in the order they
/// were added, skipping those whose server has no place free (`HostShares`), each with its
/// server's place taken until `release` gives it back. `add` waits while `capacity` items
/// wait already, so whatever feeds the queue runs only that far ahead of the work.
///
/// A lock, not an actor: a warm sync passes every one of its thousands of feeds through here
/// three times (added, handed out, given back), and an actor made each of those a hop between
/// tasks; only a caller that must wait (a full queue, no place free) suspends.
package final class HostQueue<Item: Sendable>: Sendable {
  /// An item as `pending` holds it: a reference, so that taking one from the front moves
  /// pointers, not the items. A download's job is hundreds of bytes, and moving up to
  /// `capacity` of them on every start was a per-download copy a profile could see.
  private final class Held: Sendable {
    let item: Item
    init(_ item: Item) { self.item = item }
  }

  private struct State {
    var shares: HostShares
    let capacity: Int
    var pending: [(host: String, held: Held)] = []
    /// How many of `pending` each host has.
    var pendingHosts: [String: Int] = [:]
    /// Callers of `next` waiting for an item that can start.
    var takers: [CheckedContinuation<(host: String, item: Item)?, Never>] = []
    /// Callers of `add` waiting for room.
    var adders: [CheckedContinuation<Void, Never>] = []
    var closed = false

    /// The first pending item whose host can start, taken out with its place taken.
    mutating func takeStartable() -> (host: String, item: Item)? {
      shares.admit(from: &pending, waitingHosts: &pendingHosts, host: { $0.host }, limit: 1)
        .first.map { ($0.host, $0.held.item) }
    }

    /// What `next` answers now, when it need not wait: an item that can start (unless others
    /// wait already, who come first), or nil for a closed queue that is empty.
    mutating func take() -> (ready: (host: String, item: Item)??, wakes: Wakes) {
      if takers.isEmpty, let entry = takeStartable() {
        return (.some(entry), Wakes(adders: admitAdders()))
      }
      if closed && pending.isEmpty { return (.some(nil), Wakes()) }
      return (nil, Wakes())
    }

    /// Hands what can start to the callers of `next` waiting, and room to those of `add`;
    /// `Wakes` resumes them once the lock is let go.
    mutating func dispatch() -> Wakes {
      var wakes = Wakes()
      while !takers.isEmpty, let entry = takeStartable() {
        wakes.takers.append((takers.removeFirst(), entry))
      }
      if closed && pending.isEmpty {
        wakes.takers += takers.map { ($0, nil) }
        takers = []
      }
      wakes.adders = admitAdders()
      return wakes
    }

    mutating func admitAdders() -> [CheckedContinuation<Void, Never>] {
      let room = min(max(0, capacity - pending.count), adders.count)
      guard room > 0 else { return [] }
      defer { adders.removeFirst(room) }
      return Array(adders.prefix(room))
    }
  }

  /// Waiting callers to resume, outside the lock.
  private struct Wakes {
    var takers:
      [(CheckedContinuation<(host: String, item: Item)?, Never>, (host: String, item: Item)?)] =
        []
    var adders: [CheckedContinuation<Void, Never>] = []

    func resume() {
      for (taker, entry) in takers { taker.resume(returning: entry) }
      for adder in adders { adder.resume() }
    }
  }

  private let state: Mutex<State>

  /// The shares as `HostShares` takes them; `capacity`: items waiting at most.
  package init(
    total: Int, perHost: Int, perMultiplexedHost: Int? = nil, capacity: Int,
    multiplexes: @escaping @Sendable (String) -> Bool = MultiplexingServers.shared.contains
  ) {
    state = Mutex(
      State(
        shares: HostShares(
          total: total, perHost: perHost, perMultiplexedHost: perMultiplexedHost,
          multiplexes: multiplexes),
        capacity: max(1, capacity)))
  }

  /// Adds `item` for `host`, first waiting while the queue is full.
  package func add(_ item: Item, host: String) async {
    while true {
      if offer(item, host: host) { return }
      // Resumed when `next` makes room; another adder may take it first, so look again.
      await withCheckedContinuation { (room: CheckedContinuation<Void, Never>) in
        let hasRoom = state.withLock { state -> Bool in
          guard state.pending.count >= state.capacity else { return true }
          state.adders.append(room)
          return false
        }
        if hasRoom { room.resume() }
      }
    }
  }

  /// Adds `item` for `host` if the queue has room; false, adding nothing, when it is full.
  package func offer(_ item: Item, host: String) -> Bool {
    let added = state.withLock { state -> Wakes? in
      guard state.pending.count < state.capacity else { return nil }
      state.pending.append((host, Held(item)))
      state.pendingHosts[host, default: 0] += 1
      return state.dispatch()
    }
    added?.resume()
    return added != nil
  }

  /// Nothing more will be added: once the items left are handed out, `next` answers nil.
  package func close() {
    state.withLock { state -> Wakes in
      state.closed = true
      return state.dispatch()
    }.resume()
  }

  /// The next item whose server has a place, with the place taken; waits for one. Nil once
  /// the queue is closed and empty.
  package func next() async -> (host: String, item: Item)? {
    let (ready, wakes) = state.withLock { $0.take() }
    wakes.resume()
    if let ready { return ready }
    return await withCheckedContinuation { taker in
      let (ready, wakes) = state.withLock { state in
        let taken = state.take()
        if taken.ready == nil { state.takers.append(taker) }
        return taken
      }
      wakes.resume()
      if let ready { taker.resume(returning: ready) }
    }
  }

  /// Gives back a place `next` took.
  package func release(host: String) {
    state.withLock { state -> Wakes in
      state.shares.release(host)
      return state.dispatch()
    }.resume()
  }

  /// A server was just seen to multiplex, and may have room for more.
  package func admitWaiting() {
    state.withLock { $0.dispatch() }.resume()
  }
}
