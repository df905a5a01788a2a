import Basics
import Foundation
import Model
import Store

/// A subscription's files on disk, however they came: the episodes sync recorded against it,
/// and what `download` fetched from its feed (recorded only as finished downloads). What
/// retention counts (`--keep N`: the newest N files stay, whichever command fetched them).
public struct SubscriptionFiles: Sendable {
  public struct File: Sendable, Equatable {
    public var path: String
    /// Newest first by this: when the feed says it was published, else when it was seen.
    public var date: Date
    /// The subscription's episode the file is (or will be, see `adopted`) recorded under; nil
    /// for a file of the feed whose episode the subscription never saw.
    public var episodeKey: String?
    /// Every key the episode is known by: for the episodes kept forever.
    public var keys: [String]
    /// Fetched by `download`: the subscription's episode does not name it yet.
    public var adopted: Bool
  }

  /// The files on disk.
  public var files: [File] = []
  /// Episodes recorded downloaded whose file is gone from a folder that is there: removed by
  /// hand. (A folder gone too may be a disk that is not mounted, and tells nothing.)
  public var removedByHand: [String] = []

  /// Reads the subscription's files; nothing is written.
  public static func read(_ subscription: Subscription, store: LibraryStore) throws
    -> SubscriptionFiles
  {
    let seen = try EpisodeLog(store: store).episodes(subscriptionId: subscription.id)
    var found = SubscriptionFiles()
    var paths: Set<String> = []
    var unrecorded: [String: SeenEpisode] = [:]
    for episode in seen {
      guard let file = episode.downloadedFile else {
        for key in episode.identityKeys where unrecorded[key] == nil { unrecorded[key] = episode }
        continue
      }
      guard paths.insert(file).inserted else { continue }
      guard exists(file) else {
        if exists((file as NSString).deletingLastPathComponent) {
          found.removedByHand.append(episode.key)
        }
        continue
      }
      found.files.append(
        File(
          path: file, date: episode.published ?? episode.firstSeen, episodeKey: episode.key,
          keys: episode.identityKeys, adopted: false))
    }
    for record in try FinishedDownloads(store: store).records(feedURL: subscription.feedURL) {
      guard let file = record.file, !paths.contains(file), exists(file) else { continue }
      paths.insert(file)
      let episode =
        record.episodeKey.flatMap { unrecorded[$0] }
        ?? EpisodeIdentity.identityKeys(
          guid: nil, enclosureURL: record.url, title: nil, published: nil
        ).lazy.compactMap { unrecorded[$0] }.first
      if let episode {
        // One file per episode: a second download of it is not this one's.
        for key in episode.identityKeys { unrecorded[key] = nil }
      }
      found.files.append(
        File(
          path: file, date: record.published ?? episode?.published ?? record.updatedAt,
          episodeKey: episode?.key,
          keys: (episode?.identityKeys ?? []) + [record.episodeKey].compactMap { $0 },
          adopted: episode != nil))
    }
    return found
  }

  /// The files past the newest `keep`, once files published on `incoming` dates are added
  /// (they count, but are never in the answer), leaving out those kept forever (`kept`,
  /// episode keys): they neither go nor count.
  public func beyondKeep(_ keep: Int, adding incoming: [Date?] = [], kept: Set<String>) -> [File] {
    let counted = files.filter { file in !file.keys.contains(where: kept.contains) }
    let dated =
      counted.map { (date: $0.date, file: Optional($0)) }
      + incoming.map { (date: $0 ?? Date(), file: nil) }
    return dated.sorted { $0.date > $1.date }.dropFirst(max(0, keep)).compactMap(\.file)
  }

  private static func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
  }
}
