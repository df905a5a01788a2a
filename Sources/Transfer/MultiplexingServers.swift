import Basics
import Foundation
import Synchronization

/// The servers this process has seen answer over HTTP/2 or later. Transfers to such a server
/// become streams on the one connection it keeps with us (`CURLOPT_PIPEWAIT`), so the per-host
/// shares (`HostSlots`) may let more of them run at once without asking it for more
/// connections. Learned from each hop's status line, the redirects' targets included, so a CDN
/// behind a tracker is known by what it answered itself.
package final class MultiplexingServers: Sendable {
  package static let shared = MultiplexingServers()

  private let hosts = Mutex<Set<String>>([])

  package init() {}

  /// The server `url` names, as the per-host shares count it: its host in lower case, and its
  /// port when one is written.
  package static func host(of url: String) -> String {
    SimpleWebURL.serverKey(of: url) ?? host(of: URL(string: url))
  }

  package static func host(of url: URL?) -> String {
    let host = url?.host?.lowercased() ?? ""
    return url?.port.map { "\(host):\($0)" } ?? host
  }

  package func note(_ host: String) {
    guard !host.isEmpty else { return }
    _ = hosts.withLock { $0.insert(host) }
  }

  package func contains(_ host: String) -> Bool {
    hosts.withLock { $0.contains(host) }
  }
}
