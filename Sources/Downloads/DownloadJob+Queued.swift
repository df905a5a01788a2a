import Foundation
import Library

extension DownloadJob {
  /// The job as the library queues it, with what a run after a 304 needs to make the same
  /// download (its details). One place for sync, `subscribe` and the download manager.
  /// `pid`: the process about to run it (the download manager), nil for a later run.
  /// `withDetails: false` when the move does not keep them (`begin`): encoding them is a
  /// JSON document per download for nothing.
  package func queued(pid: Int32? = nil, withDetails: Bool = true) -> QueuedDownload {
    QueuedDownload(
      url: url, podcastTitle: podcastTitle, episodeTitle: title, feedURL: feedURL,
      identityKeys: identityKeys, published: published,
      details: withDetails ? DownloadDetails(of: self).encoded : nil, archive: archive?.encoded,
      pid: pid)
  }
}
