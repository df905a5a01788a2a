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

  package init(
    key: DownloadKey, file: String = "", bytes: Int64, progress: DownloadProgress?,
    episode: SubscriptionEpisode?
  ) {
    self.key = key
    self.file = file
    self.bytes = bytes
    self.progress = progress
    self.episode = episode
  }
}
