import Basics
import Transfer

/// How many things may run at once, overall and on any one server: at most `total`, and at
/// most `perHost` to one host, or `perMultiplexedHost` to a server known to answer over HTTP/2
/// (`multiplexes`), whose transfers are streams on its one connection (`CURLOPT_PIPEWAIT`),
/// not connections of their own: the share that keeps it polite is one of connections, not of
/// transfers. The counting only; `HostSlots` makes tasks wait for a place, `HostQueue` keeps
/// the work itself until its server has one.
package struct HostShares: Sendable {
  private let total: Int
  private let perHost: Int
  private let perMultiplexedHost: Int
  private let multiplexes: @Sendable (String) -> Bool
  private var running: [String: Int] = [:]
  private(set) var runningTotal = 0

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

  /// Whether nothing more may start anywhere.
  package var isFull: Bool { runningTotal >= total }

  package func canStart(_ host: String) -> Bool {
    guard runningTotal < total else { return false }
    let count = running[host, default: 0]
    if count < perHost { return true }
    return count < perMultiplexedHost && multiplexes(host)
  }

  package mutating func take(_ host: String) {
    running[host, default: 0] += 1
    runningTotal += 1
  }

  /// Takes out of `waiting` (in order) up to `limit` of the first that can start now, taking
  /// a place for each, and returns them; `waitingHosts` counts the hosts in `waiting`. The look
  /// ends once every host with waiters is full: with thousands waiting on one server, reading
  /// past the first each time a place is given back would cost more than the work.
  package mutating func admit<Waiting>(
    from waiting: inout [Waiting], waitingHosts: inout [String: Int],
    host: (Waiting) -> String, limit: Int = .max
  ) -> [Waiting] {
    var admitted: [Waiting] = []
    // Made only once a host is found full: most looks take the first waiter.
    var full: Set<String>?
    var index = 0
    while index < waiting.count, admitted.count < limit, !isFull {
      let next = host(waiting[index])
      if full?.contains(next) != true, canStart(next) {
        admitted.append(waiting.remove(at: index))
        waitingHosts[next, default: 1] -= 1
        if waitingHosts[next] == 0 { waitingHosts[next] = nil }
        take(next)
      } else {
        full = full ?? Set(minimumCapacity: waitingHosts.count)
        full?.insert(next)
        if full?.count == waitingHosts.count { break }
        index += 1
      }
    }
    return admitted
  }

  package mutating func release(_ host: String) {
    let count = running[host, default: 1] - 1
    running[host] = count > 0 ? count : nil
    runningTotal -= 1
  }
}
