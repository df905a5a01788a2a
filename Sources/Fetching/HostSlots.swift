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
  /// How many of `waiting` each host has.
  private var waitingHosts: [String: Int] = [:]

  /// How many times its share a server that multiplexes takes: three streams on its one
  /// connection for each connection `perHost` allows, so a smaller `perHost` (`--per-host 1`)
  /// still asks less of every server.
  package static let multiplexedShare = 3

  /// `perMultiplexedHost`: `multiplexedShare` times `perHost` unless given.
  package init(
    total: Int, perHost: Int, perMultiplexedHost: Int? = nil,
    multiplexes: @escaping @Sendable (String) -> Bool = MultiplexingServers.shared.contains
  ) {
    self.total = max(1, total)
    self.perHost = max(1, perHost)
    self.perMultiplexedHost = max(
      self.perHost, perMultiplexedHost ?? Self.multiplexedShare * self.perHost)
    self.multiplexes = multiplexes
  }

  package func acquire(host: String) async {
    if canStart(host) {
      take(host)
      return
    }
    waitingHosts[host, default: 0] += 1
    await withCheckedContinuation { waiting.append((host, $0)) }
  }

  package func release(host: String) {
    running[host, default: 1] -= 1
    runningTotal -= 1
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
    while index < waiting.count, runningTotal < total {
      let host = waiting[index].host
      if !full.contains(host), canStart(host) {
        let waiter = waiting.remove(at: index)
        waitingHosts[host, default: 1] -= 1
        if waitingHosts[host] == 0 { waitingHosts[host] = nil }
        take(waiter.host)
        waiter.continuation.resume()
      } else {
        full.insert(host)
        if full.count == waitingHosts.count { return }
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
