import PodcastKit

/// `sync`'s words for people: the feeds that moved (said before the downloads start), then
/// what was added beside earlier episodes, what was pruned, and one summary line.
struct SyncReport {
  let outcome: SyncOutcome

  /// One line per feed that a permanent redirect or `itunes:new-feed-url` moved.
  static func moves(_ plan: SyncPlan) -> [String] {
    plan.feeds.compactMap { feed in
      feed.movedFrom.map {
        "moved       \(feed.subscription.name): \($0) -> \(feed.subscription.feedURL)"
      }
    }
  }

  var lines: [String] {
    let sideFiles = outcome.sideFiles
    return sideFiles.covers.map { "cover       \($0)" }
      + sideFiles.files.map { "side file   \($0)" }
      + sideFiles.notes.map { "note        \(Format.singleLine($0.description))" }
      + outcome.pruned.map { "pruned      \($0)" } + [summary]
  }

  private var summary: String {
    let plan = outcome.plan
    let updated = outcome.feedsWithNewEpisodes
    let feeds =
      "\(plan.feeds.count) feed\(plan.feeds.count == 1 ? "" : "s") checked, \(updated) with new episodes, \(plan.failedFeeds.count) failed"
    let pruned = outcome.pruned.count
    return outcome.results.isEmpty
      ? feeds + "; nothing to download."
      : feeds + "; " + DownloadRun.summary(outcome.results)
        + (pruned > 0 ? ", \(pruned) pruned" : "")
  }
}
