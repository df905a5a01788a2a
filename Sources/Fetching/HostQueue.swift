import Basics
import Transfer

/// Work waiting for its server's turn, kept as values until it can start: a task made for every
/// feed and every download at once would hold all their waiting frames, most of a large sync's
/// memory. `next` hands out items in the order they
/// were added, skipping those whose server has no place free (`HostShares`), each with its
/// server's place taken until `release` gives it back. `add` waits while `capacity` items
/// wait already, so whatever feeds the queue runs only that far ahead of the work.
package actor HostQueue<Item: Sendable> {
  private var shares: HostShares
  private let capacity: Int
  private var pending: [(host: String, item: Item)] = []
  /// How many of `pending` each host has.
  private var pendingHosts: [String: Int] = [:]
  /// Callers of `next` waiting for an item that can start.
  private var takers: [CheckedContinuation<(host: String, item: Item)?, Never>] = []
  /// Callers of `add` waiting for room.
  private var adders: [CheckedContinuation<Void, Never>] = []
  private var closed = false

  /// The shares as `HostShares` takes them; `capacity`: items waiting at most.
  package init(
    total: Int, perHost: Int, perMultiplexedHost: Int? = nil, capacity: Int,
    multiplexes: @escaping @Sendable (String) -> Bool = MultiplexingServers.shared.contains
  ) {
    shares = HostShares(
      total: total, perHost: perHost, perMultiplexedHost: perMultiplexedHost,
      multiplexes: multiplexes)
    self.capacity = max(1, capacity)
  }

  /// Adds `item` for `host`, first waiting while the queue is full.
  package func add(_ item: Item, host: String) async {
    while pending.count >= capacity {
      await withCheckedContinuation { adders.append($0) }
    }
    pending.append((host, item))
    pendingHosts[host, default: 0] += 1
    dispatch()
  }

  /// Nothing more will be added: once the items left are handed out, `next` answers nil.
  package func close() {
    closed = true
    dispatch()
  }

  /// The next item whose server has a place, with the place taken; waits for one. Nil once
  /// the queue is closed and empty.
  package func next() async -> (host: String, item: Item)? {
    if takers.isEmpty, let entry = takeStartable() {
      admitAdders()
      return entry
    }
    if closed && pending.isEmpty { return nil }
    return await withCheckedContinuation { takers.append($0) }
  }

  /// Gives back a place `next` took.
  package func release(host: String) {
    shares.release(host)
    dispatch()
  }

  /// A server was just seen to multiplex, and may have room for more.
  package func admitWaiting() {
    dispatch()
  }

  private func dispatch() {
    while !takers.isEmpty, let entry = takeStartable() {
      takers.removeFirst().resume(returning: entry)
    }
    if closed && pending.isEmpty {
      for taker in takers { taker.resume(returning: nil) }
      takers = []
    }
    admitAdders()
  }

  private func admitAdders() {
    var room = capacity - pending.count
    while room > 0, !adders.isEmpty {
      adders.removeFirst().resume()
      room -= 1
    }
  }

  /// The first pending item whose host can start, taken out with its place taken.
  private func takeStartable() -> (host: String, item: Item)? {
    shares.admit(from: &pending, waitingHosts: &pendingHosts, host: { $0.host }, limit: 1).first
  }
}
