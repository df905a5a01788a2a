import Foundation
import Model
import Transfer

extension DownloadJob {
  /// The server whose per-host share a download counts against: the host that sends the
  /// bytes, behind any tracking prefixes (`dts.podtrac.com/redirect.mp3/cdn.example.com/a.mp3`
  /// counts against cdn.example.com). A tracker only answers with a redirect; counted against
  /// it, every show behind one tracker shared two downloads at once, while the CDN behind it
  /// had no limit from the shows that reach it through several trackers.
  package var servingHost: String {
    // Most links name no tracker: their own host, without normalising the whole URL.
    let parsed = URL(string: url)
    let host = parsed?.host?.lowercased() ?? ""
    guard TrackingPrefix.isTracker(host) else { return MultiplexingServers.host(of: parsed) }
    guard let normalised = EpisodeIdentity.normalisedURL(url),
      let authority = normalised.split(separator: "/", omittingEmptySubsequences: false).first,
      let host = authority.split(separator: "@").last, !host.isEmpty
    else { return host }
    return String(host)
  }
}
