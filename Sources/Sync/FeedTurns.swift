import Fetching
import Transfer

/// Which of a sync's feeds may start now: the run's order, past those whose server is at its
/// share (`HostShares`). A value in the state `SyncPlanner.plan`'s loop shares with the
/// transfer thread, under its lock: whoever hears a feed's part gives its server's place back
/// and takes what may start in the same hold; nothing waits on it, so it needs no task.
///
/// Only a window of the feeds after the last one started is looked at, as many as may run at
/// once: with thousands of feeds on one server at its share, looking past all of them each
/// time a place is given back would cost more than the requests.
struct FeedTurns {
  private let feedURLs: [String]
  private var shares: HostShares
  private let window: Int
  /// The next feed to come into the window.
  private var added = 0
  private var waiting: [(host: String, index: Int)] = []
  /// How many of `waiting` each host has.
  private var waitingHosts: [String: Int] = [:]

  /// `feedURLs` in the run's order; `total` feeds at most at once, `perHost` on any one server.
  init(feedURLs: [String], total: Int, perHost: Int) {
    self.feedURLs = feedURLs
    shares = HostShares(total: total, perHost: perHost)
    window = max(1, total)
  }

  /// The feeds (their server and place in the run) that may start now, their places taken.
  mutating func startable() -> [(host: String, index: Int)] {
    while added < feedURLs.count, waiting.count < window {
      let host = MultiplexingServers.host(of: feedURLs[added])
      waiting.append((host, added))
      waitingHosts[host, default: 0] += 1
      added += 1
    }
    return shares.admit(from: &waiting, waitingHosts: &waitingHosts, host: \.host)
  }

  /// Gives back the place a feed on `host` took.
  mutating func release(_ host: String) {
    shares.release(host)
  }
}
