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
  /// or when a server has just been seen to multiplex and so has room for more.
  package func admitWaiting() {
    for waiter in shares.admit(from: &waiting, waitingHosts: &waitingHosts, host: \.host) {
      waiter.continuation.resume()
    }
  }
}
