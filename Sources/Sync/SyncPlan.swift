import Basics
import Downloads
import Foundation
import Model
import SideFiles

/// What one sync found: per subscription what happened, and the downloads it calls for.
public struct SyncPlan: Sendable {
  public enum FeedOutcome: Sendable {
    /// 304, or a fresh copy with nothing new.
    case unchanged
    case updated(newEpisodes: Int)
    /// The typed error (transfer, feed, library, sync): its sentence is what users see.
    case failed(any Error)
  }

  public struct FeedReport: Sendable {
    public var subscription: Subscription
    public var outcome: FeedOutcome
    /// Set when a permanent redirect or `itunes:new-feed-url` moved the feed.
    public var movedFrom: String?
    /// The podcast's picture as the feed names it now; nil when the feed was not read (304,
    /// failure) or names none.
    public var imageURL: String? = nil
  }

  /// A download with the subscription episode it belongs to, so the result can be recorded.
  public struct PlannedDownload: Sendable {
    public var job: DownloadJob
    public var subscriptionId: Int64
    /// The library has the episode already (`download` fetched it, maybe under another link):
    /// planned so the subscription learns its file, which the run reports as skipped.
    public var alreadyHad = false
  }

  /// An episode already downloaded whose feed links side files: the ones missing beside
  /// `file` (an earlier run could not fetch them) are fetched; present ones cost a `stat`.
  public struct SideFileCheck: Sendable {
    public var job: DownloadJob
    public var file: String
    public var subscriptionId: Int64
  }

  public var feeds: [FeedReport] = []
  public var downloads: [PlannedDownload] = []
  public var sideFileChecks: [SideFileCheck] = []

  package init(
    feeds: [FeedReport] = [], downloads: [PlannedDownload] = [],
    sideFileChecks: [SideFileCheck] = []
  ) {
    self.feeds = feeds
    self.downloads = downloads
    self.sideFileChecks = sideFileChecks
  }

  public var failedFeeds: [FeedReport] {
    feeds.filter { if case .failed = $0.outcome { true } else { false } }
  }
}
