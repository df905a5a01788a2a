import Basics

/// The measurement and redirect services that publishers put in front of their enclosure URLs
/// (`host/path/<real host>/<real path>`). They come and go between feed refreshes, so they
/// must not change an episode's identity.
package enum TrackingPrefix {
  /// Path segments after the host; `*` matches any one segment (an account or show id).
  private static let patterns: [(host: String, segments: [String])] = [
    ("dts.podtrac.com", ["redirect.*"]),
    ("podtrac.com", ["pts", "redirect.*"]),
    ("www.podtrac.com", ["pts", "redirect.*"]),
    ("chtbl.com", ["track", "*"]),
    ("chrt.fm", ["track", "*"]),
    ("pdst.fm", ["e"]),
    ("pdcn.co", ["e"]),
    ("mgln.ai", ["e", "*"]),
    ("op3.dev", ["e"]),
    ("pfx.vpixl.com", ["*"]),
    ("arttrk.com", ["p", "*"]),
    ("verifi.podscribe.com", ["rss", "p"]),
    ("pscrb.fm", ["rss", "p"]),
    ("prfx.byspotify.com", ["e"]),
    ("claritaspod.com", ["measure"]),
    ("clrtpod.com", ["m"]),
    ("tracking.swap.fm", ["track", "*"]),
    ("media.blubrry.com", ["*"]),
  ]

  /// Whether `host` (lower-case, no port) is one of the tracking services.
  package static func isTracker(_ host: String) -> Bool {
    hosts.contains(host)
  }

  private static let hosts = Set(patterns.map(\.host))

  /// The URL behind the first tracking prefix of `hostAndPath` (no scheme), or nil when it
  /// does not start with one. Only strips when what remains still looks like `host/path`.
  package static func strip(_ hostAndPath: String) -> String? {
    // Most links have no tracker in front: their host alone says so.
    let end = hostAndPath.utf8.firstIndex(of: UInt8(ascii: "/")) ?? hostAndPath.endIndex
    guard isTracker(hostAndPath[..<end].lowercased()) else { return nil }
    let parts = hostAndPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard let host = parts.first?.lowercased() else { return nil }
    for pattern in patterns where pattern.host == host {
      let count = pattern.segments.count
      guard parts.count > count + 1 else { continue }
      let matches = zip(pattern.segments, parts[1...count]).allSatisfy { segment, part in
        matchesSegment(segment, part.lowercased())
      }
      let remainder = parts[(count + 1)...].joined(separator: "/")
      if matches && looksLikeHostAndPath(remainder) { return remainder }
    }
    return nil
  }

  /// `redirect.*` matches `redirect.mp3`; `e` also matches OP3's `e,pg=<guid>` form.
  private static func matchesSegment(_ pattern: String, _ segment: String) -> Bool {
    if pattern == "*" { return !segment.isEmpty }
    if pattern.hasSuffix("*") { return segment.hasPrefix(pattern.dropLast()) }
    return segment == pattern || segment.hasPrefix(pattern + ",")
  }

  private static func looksLikeHostAndPath(_ text: String) -> Bool {
    var rest = Substring(text)
    for scheme in ["https://", "http://"] where rest.lowercased().hasPrefix(scheme) {
      rest = rest.dropFirst(scheme.count)
      break
    }
    guard let host = rest.split(separator: "/", omittingEmptySubsequences: false).first else {
      return false
    }
    return host.contains(".") && rest.contains("/")
  }
}
