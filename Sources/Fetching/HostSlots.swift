import Basics
import Transfer

/// Admits at most `total` transfers at once and at most `perHost` to any one server, so one
/// host is never hammered while another sits idle. A server known to answer over HTTP/2
/// (`multiplexes`) takes up to `perMultiplexedHost`: there its transfers are streams on the
/// one connection already open (`CURLOPT_PIPEWAIT`), not connections of their own, so the
/// share that keeps it polite is one of connections, not of transfers.
package actor HostSlots {
  private let total: Int
  private let perHost: Int
  private let perMultiplexedHost: Int
  private let multiplexes: @Sendable (String) -> Bool
  private var running: [String: Int] = [:]
  private var runningTotal = 0
  private var waiting: [(host: String, continuation: CheckedContinuation<Void, Never>)] = []

  package init(
    total: Int, perHost: Int, perMultiplexedHost: Int? = nil,
    multiplexes: @escaping @Sendable (String) -> Bool = MultiplexingServers.shared.contains
  ) {
    self.total = max(1, total)
    self.perHost = max(1, perHost)
    self.perMultiplexedHost = max(self.perHost, perMultiplexedHost ?? perHost)
    self.multiplexes = multiplexes
  }

  package func acquire(host: String) async {
    if canStart(host) {
      take(host)
      return
    }
    await withCheckedContinuation { waiting.append((host, $0)) }
  }

  package func release(host: String) {
    running[host, default: 1] -= 1
    runningTotal -= 1
    admitWaiting()
  }

  /// Starts every waiter that fits now, in the order they came: after a slot is given back,
  /// or when a server has just been seen to multiplex and so has room for more.
  package func admitWaiting() {
    var index = 0
    while index < waiting.count, runningTotal < total {
      if canStart(waiting[index].host) {
        let waiter = waiting.remove(at: index)
        take(waiter.host)
        waiter.continuation.resume()
      } else {
        index += 1
      }
    }
  }

  private func canStart(_ host: String) -> Bool {
    guard runningTotal < total else { return false }
    let count = running[host, default: 0]
    if count < perHost { return true }
    return count < perMultiplexedHost && multiplexes(host)
  }

  private func take(_ host: String) {
    running[host, default: 0] += 1
    runningTotal += 1
  }
}
