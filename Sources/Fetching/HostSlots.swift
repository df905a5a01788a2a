import Basics

/// Admits at most `total` downloads at once and at most `perHost` to any one server, so one
/// host is never hammered while another sits idle.
package actor HostSlots {
  private let total: Int
  private let perHost: Int
  private var running: [String: Int] = [:]
  private var runningTotal = 0
  private var waiting: [(host: String, continuation: CheckedContinuation<Void, Never>)] = []

  package init(total: Int, perHost: Int) {
    self.total = max(1, total)
    self.perHost = max(1, perHost)
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
    if let next = waiting.firstIndex(where: { canStart($0.host) }) {
      let waiter = waiting.remove(at: next)
      take(waiter.host)
      waiter.continuation.resume()
    }
  }

  private func canStart(_ host: String) -> Bool {
    runningTotal < total && running[host, default: 0] < perHost
  }

  private func take(_ host: String) {
    running[host, default: 0] += 1
    runningTotal += 1
  }
}
