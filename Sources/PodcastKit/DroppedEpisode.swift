import Downloads
import Feeds
import Foundation
import Model
import Selection

/// An episode of a subscription that its feed no longer lists, but that this library
/// downloaded (its file may since have been deleted), is downloading, or the user marked:
/// feeds drop old episodes, and an archive outlives them. Made from what the library
/// remembers of it (GUID, title, date, enclosure URL), so it has no duration, size or notes.
/// It has no index: indexes are positions in the feed, and `download FEED 3` must mean the
/// same episode whether or not the library remembers more.
public struct DroppedEpisode: Sendable {
  public var episode: Episode
  public var status: ListedStatus

  /// The episodes in `seen` (a subscription's, oldest first) that `listed` (every identity key
  /// of the feed's own episodes) does not name and that the library holds something of,
  /// newest first, as `filter` lets them through.
  static func find(
    in seen: [SeenEpisode], listed: Set<String>, downloads: DownloadProgressReader,
    marks: [String: EpisodeMark.State], plays: [String: PlayState] = [:],
    kept: Set<String> = [], filter: EpisodePredicate?
  ) -> [DroppedEpisode] {
    var dropped: [(date: Date, episode: DroppedEpisode)] = []
    for remembered in seen where !listed.contains(remembered.key) {
      let keys = remembered.identityKeys
      // Any key in common is the feed's episode, re-listed: better shown once, numbered.
      guard !keys.contains(where: listed.contains) else { continue }
      let status = ListedStatus(
        download: status(of: remembered, keys: keys, downloads: downloads),
        mark: marks[remembered.key], play: ListedStatus.play(keys: keys, in: plays),
        keptForever: kept.contains(remembered.key))
      guard status.state != "new" else { continue }
      let episode = Episode(
        guid: remembered.guid, title: remembered.title, published: remembered.published,
        enclosure: Enclosure(url: remembered.enclosureURL ?? ""))
      if let filter, !filter.accepts(episode) { continue }
      dropped.append(
        (
          remembered.published ?? remembered.firstSeen,
          DroppedEpisode(episode: episode, status: status)
        ))
    }
    // Stable: episodes of one date stay in the order they were first seen.
    return dropped.enumerated().sorted {
      $0.element.date != $1.element.date ? $0.element.date > $1.element.date : $0.offset < $1.offset
    }.map(\.element.episode)
  }

  /// What the library holds of it: as a listed episode's, else the file sync recorded for it.
  private static func status(
    of remembered: SeenEpisode, keys: [String], downloads: DownloadProgressReader
  ) -> EpisodeDownloadStatus {
    let status = downloads.status(of: remembered.enclosureURL ?? "", keys: keys)
    guard status.state == .new, let file = remembered.downloadedFile else { return status }
    return FileManager.default.fileExists(atPath: file)
      ? EpisodeDownloadStatus(state: .downloaded, progress: 1, file: file)
      : EpisodeDownloadStatus(state: .deleted, progress: 0, file: nil)
  }
}
