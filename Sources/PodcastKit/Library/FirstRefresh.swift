import Foundation

/// What `subscribe` learned from the feed it fetched, saved with the new subscription in the
/// same transaction: the validators, so the first sync asks with a conditional GET; every
/// episode listed, so a 304 hides nothing the library has not seen; and what the first-sync
/// policy chose, queued, so that sync downloads it even when the feed has not changed.
public struct FirstRefresh: Sendable {
  public var validators: Validators
  public var checked: Date
  /// The feed's episodes (their `subscriptionId` is set on insert).
  public var episodes: [SeenEpisode]
  /// Downloads queued for the first sync.
  public var queued: [DownloadRecord]
  /// Chosen episodes the library already has, by episode key: the file they are in.
  public var files: [String: String]

  public init(
    validators: Validators, checked: Date = Date(), episodes: [SeenEpisode],
    queued: [DownloadRecord] = [], files: [String: String] = [:]
  ) {
    self.validators = validators
    self.checked = checked
    self.episodes = episodes
    self.queued = queued
    self.files = files
  }
}
