import Basics
import Transfer

/// Admits at most `total` transfers at once and at most `perHost` to any one server, so one
/// host is never hammered while another sits idle (the shares: `HostShares`). A task waits in
/// `acquire` until its server has a place.
package actor HostSlots {
  private var shares: HostShares
  private var waiting: [(host: String, continuation: CheckedContinuation<Void, Never>)] = []
  /// How many of `waiting` each host has.
  private var waitingHosts: [String: Int] = [:]

  /// `perMultiplexedHost`: `HostShares.multiplexedShare` times `perHost` unless given.
  package init(
    total: Int, perHost: Int, perMultiplexedHost: Int? = nil,
    multiplexes: @escaping @Sendable (String) -> Bool = MultiplexingServers.shared.contains
  ) {
    shares = HostShares(
      total: total, perHost: perHost, perMultiplexedHost: perMultiplexedHost,
      multiplexes: multiplexes)
  }

  package func acquire(host: String) async {
    if shares.canStart(host) {
      shares.take(host)
      return
    }
    waitingHosts[host, default: 0] += 1
    await withCheckedContinuation { waiting.append((host, $0)) }
  }

  package func release(host: String) {
    shares.release(host)
    admitWaiting()
  }

  /// Starts every waiter that fits now, in the order they came: after a slot is given back,
  /// or when a server has just been seen to multiplex and so has room for more. The look
  /// ends once every host with waiters is full: a sync of 2,000 feeds on one server has
  /// 2,000 waiters, and reading past the first after each slot given back was a third of
  /// its CPU.
  package func admitWaiting() {
    var index = 0
    var full: Set<String> = []
    while index < waiting.count, !shares.isFull {
      let host = waiting[index].host
      if !full.contains(host), shares.canStart(host) {
        let waiter = waiting.remove(at: index)
        waitingHosts[host, default: 1] -= 1
        if waitingHosts[host] == 0 { waitingHosts[host] = nil }
        shares.take(waiter.host)
        waiter.continuation.resume()
      } else {
        full.insert(host)
        if full.count == waitingHosts.count { return }
        index += 1
      }
    }
  }
}
