import Foundation
import Library

extension DownloadJob {
  /// The job as the library queues it, with what a run after a 304 needs to make the same
  /// download (its details). One place for sync, `subscribe` and the download manager.
  /// `pid`: the process about to run it (the download manager), nil for a later run.
  package func queued(pid: Int32? = nil) -> QueuedDownload {
    QueuedDownload(
      url: url, podcastTitle: podcastTitle, episodeTitle: title, feedURL: feedURL,
      identityKeys: identityKeys, published: published,
      details: DownloadDetails(of: self).encoded, archive: archive?.encoded, pid: pid)
  }
}
