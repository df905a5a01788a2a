import Foundation
import Model
import SideFiles
import Store

/// `podcast unsubscribe`: stop following a subscription, and with `deleteFiles` remove the
/// episodes downloaded for it.
///
/// A file that cannot be deleted does not stop the others: each failure is collected, and the
/// subscription is gone either way.
public struct RemoveSubscription: Sendable {
  public struct Outcome: Sendable {
    public var subscription: Subscription
    public var deleted: [String] = []
    /// Files that could not be deleted: the command failed for these.
    public var failures: [LibraryError] = []
    /// Folder playlists that could not be rewritten: notes only, the files are gone anyway.
    public var playlistFailures: [FolderViewError] = []
  }

  private let paths: LibraryPaths

  public init(paths: LibraryPaths) {
    self.paths = paths
  }

  /// `name`: the subscription's name, an unambiguous prefix of it, or its number.
  public func run(name: String, deleteFiles: Bool) throws -> Outcome {
    let store = try LibraryStore(paths: paths)
    let subscription = try Subscriptions(store: store).matching(name)
    let id = subscription.id
    // Read before the subscription goes: what sync recorded for it, and what `download`
    // fetched from its feed (which no subscription row points at).
    let files = Array(
      Set(
        try EpisodeLog(store: store).episodes(subscriptionId: id).compactMap(\.downloadedFile)
          + FinishedDownloads(store: store).files(feedURL: subscription.feedURL))
    ).sorted()
    // Its kept copy of the feed goes with it.
    try Subscriptions(store: store).remove(id: id)
    var outcome = Outcome(subscription: subscription)
    guard deleteFiles else { return outcome }
    let deletion = DownloadedFiles.delete(files, paths: store.paths)
    outcome.deleted = deletion.deleted
    outcome.failures = deletion.failures
    // A record whose file is gone would make `episodes` and `download` call it had; one whose
    // deletion failed keeps its record, as the file is still there.
    try DownloadRows(store: store).forgetFinished(
      files: files.filter { path in
        !FileManager.default.fileExists(atPath: path)
      })
    // Another podcast can share the folder; a folder left empty is gone with its feed and
    // playlist.
    outcome.playlistFailures = FolderViews.update(
      outcome.deleted.map { TouchedFile($0, .changed) },
      episodesDirectories: [store.paths.episodes], store: store)
    return outcome
  }
}
