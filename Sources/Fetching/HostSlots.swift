import Basics

/// Admits at most `total` transfers at once and at most `perHost` to any one server, so one
/// host is never hammered while another sits idle. A server known to answer over HTTP/2
/// (`noteMultiplexed`) takes up to `perMultiplexedHost`: there its transfers are streams on
/// the one connection already open (`CURLOPT_PIPEWAIT`), not connections of their own, so
/// the share that keeps it polite is one of connections, not of transfers.
package actor HostSlots {
  private let total: Int
  private let perHost: Int
  private let perMultiplexedHost: Int
  private var running: [String: Int] = [:]
  private var runningTotal = 0
  private var multiplexed: Set<String> = []
  private var waiting: [(host: String, continuation: CheckedContinuation<Void, Never>)] = []

  package init(total: Int, perHost: Int, perMultiplexedHost: Int? = nil) {
    self.total = max(1, total)
    self.perHost = max(1, perHost)
    self.perMultiplexedHost = max(self.perHost, perMultiplexedHost ?? perHost)
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

  /// `host` answered over HTTP/2: the transfers waiting for it may start up to its larger
  /// share.
  package func noteMultiplexed(host: String) {
    guard perMultiplexedHost > perHost, multiplexed.insert(host).inserted else { return }
    admitWaiting()
  }

  /// Starts every waiter that fits, in the order they came.
  private func admitWaiting() {
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
    let share = multiplexed.contains(host) ? perMultiplexedHost : perHost
    return runningTotal < total && running[host, default: 0] < share
  }

  private func take(_ host: String) {
    running[host, default: 0] += 1
    runningTotal += 1
  }
}
