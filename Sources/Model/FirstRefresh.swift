import Basics
import Feeds
import Foundation

/// What `subscribe` learned from the feed it fetched, saved with the new subscription in the
/// same transaction: the validators, so the first sync asks with a conditional GET; every
/// episode listed, so a 304 hides nothing the library has not seen; and what the first-sync
/// policy chose, queued, so that sync downloads it even when the feed has not changed.
///
/// The subscription stays unchecked (`lastChecked` nil) until its first sync: until then `set`
/// may still change what that sync takes, by forgetting all of this (`forgetFirstRefresh`).
public struct FirstRefresh: Sendable {
  public var validators: Validators
  /// The feed's episodes (their `subscriptionId` is set on insert); a chosen one the library
  /// already has carries its file.
  public var episodes: [SeenEpisode]
  /// Downloads queued for the first sync.
  package var queued: [QueuedDownload]
  /// The feed's episodes as `episodes` lists them, for the full-text index: their titles and
  /// show notes are found from the moment the subscription is.
  package var listing: [Episode] = []

  package init(validators: Validators, episodes: [SeenEpisode], queued: [QueuedDownload] = []) {
    self.validators = validators
    self.episodes = episodes
    self.queued = queued
  }
}
