import Basics
import Foundation

/// A download someone wants, as the library records it: what `sync`, `subscribe` and the
/// download manager queue, built by them from their own job types (the library knows no
/// `DownloadJob`). Its row is found by `key`, else by another of its identity keys within the
/// same feed, else by its URL (see `DownloadRows.known`).
package struct QueuedDownload: Sendable, Equatable {
  /// The enclosure URL the feed lists now.
  package var url: String
  package var podcastTitle: String?
  package var episodeTitle: String?
  /// The feed that lists the episode (a URL, or a local file's path).
  package var feedURL: String?
  /// Which show that feed is (`ShowIdentity`); nil when it says too little to tell.
  package var show: String?
  /// Every `EpisodeIdentity` key the episode answers to, its own first.
  package var identityKeys: [String]
  package var published: Date?
  /// What the download takes from its feed beyond the row's columns (`DownloadDetails` as
  /// JSON), so one resumed after a 304 is the same download.
  package var details: String?
  /// What the feed says about the episode (`ArchivedEpisode` as JSON), kept after it finished
  /// for the folder's own feed; nil when this run writes none.
  package var archive: String?
  /// The process about to run the download now; nil when it is queued for a later run (sync's
  /// plan, `subscribe`), which leaves a begun download's state as it is.
  package var owner: ProcessOwner?

  package init(
    url: String, podcastTitle: String? = nil, episodeTitle: String? = nil,
    feedURL: String? = nil, identityKeys: [String] = [], published: Date? = nil,
    details: String? = nil, archive: String? = nil, owner: ProcessOwner? = nil,
    show: String? = nil
  ) {
    self.show = show
    self.url = url
    self.podcastTitle = podcastTitle
    self.episodeTitle = episodeTitle
    self.feedURL = feedURL
    self.identityKeys = identityKeys
    self.published = published
    self.details = details
    self.archive = archive
    self.owner = owner
  }

  /// The key a new row of this download gets.
  package var key: DownloadKey {
    DownloadKey(feedURL: feedURL, episodeKey: identityKeys.first, url: url)
  }
}
