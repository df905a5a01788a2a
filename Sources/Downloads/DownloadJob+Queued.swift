import Basics
import Foundation
import Model

extension DownloadJob {
  /// The job as the library queues it, with what a run after a 304 needs to make the same
  /// download (its details). One place for sync, `subscribe` and the download manager.
  /// `owner`: the process about to run it (the download manager, or sync's planner for what it
  /// plans), nil for a later run.
  /// `withDetails: false` when the move does not need them (`begin`: the row was queued with
  /// its details and archive moments before): encoding them is two JSON documents per download
  /// (show notes included) for nothing.
  package func queued(owner: ProcessOwner? = nil, withDetails: Bool = true) -> QueuedDownload {
    QueuedDownload(
      url: url, podcastTitle: podcastTitle, episodeTitle: title, feedURL: feedURL,
      identityKeys: identityKeys, published: published,
      details: withDetails ? DownloadDetails(of: self).encoded : nil,
      archive: withDetails ? archive?.encoded : nil,
      owner: owner, show: show)
  }
}
