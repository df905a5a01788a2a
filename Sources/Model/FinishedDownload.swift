import Foundation

/// A download whose file is in place and durable, to be recorded done with others of its
/// finish batch in one commit (`DownloadRows.recordFinished(_:)`).
package struct FinishedDownload: Sendable {
  package var key: DownloadKey
  /// Where the file landed: set by the batch once it has placed it.
  package var file: String
  package var bytes: Int64
  /// What the last response said, kept in memory until now.
  package var progress: DownloadProgress?
  /// The subscription's episode (sync), which learns its file in the same commit.
  package var episode: SubscriptionEpisode?
  /// The download's begin, when it is not written yet (`DownloadRows.start`): written first,
  /// in the same commit.
  package var unwritten: DownloadTransition?

  package init(
    key: DownloadKey, file: String = "", bytes: Int64, progress: DownloadProgress?,
    episode: SubscriptionEpisode?, unwritten: DownloadTransition? = nil
  ) {
    self.key = key
    self.file = file
    self.bytes = bytes
    self.progress = progress
    self.episode = episode
    self.unwritten = unwritten
  }
}
