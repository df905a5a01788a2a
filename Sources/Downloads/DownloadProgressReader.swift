import Basics
import Foundation
import Model
import Store

/// What the library holds of an episode, for listings: downloaded, partly downloaded, or new.
public struct EpisodeDownloadStatus: Sendable, Equatable {
  public enum State: String, Sendable {
    case new
    case partial
    case downloaded
    /// Downloaded, then its file removed by its owner: not news to sync, and `download`
    /// fetches it again when asked.
    case deleted
  }

  public var state: State
  /// From 0 to 1 (0 when unknown).
  public var progress: Double
  /// The finished file, when downloaded.
  public var file: String?

  public static let new = EpisodeDownloadStatus(state: .new, progress: 0, file: nil)

  package init(state: State, progress: Double, file: String?) {
    self.state = state
    self.progress = progress
    self.file = file
  }
}

/// Reads episode states from the library and the files on disk, so a listing shows what a
/// previous (or crashed, or concurrent) run left behind. Never writes. The rows are read
/// once, up front: a 20,000-episode listing asks the database one question, not 20,000.
public struct DownloadProgressReader: Sendable {
  private let store: LibraryStore?
  private let feedURL: String
  private let byURL: [String: DownloadRecord]
  private let byKey: [DownloadKey: DownloadRecord]
  private let finishedByKey: [String: DownloadRecord]
  /// The feed's rows by episode key.
  private let listedByKey: [String: DownloadRecord]

  /// `store` nil: there is no library yet, every episode is new. `feedURL`: the listed feed,
  /// within which identity keys are matched, and within the other feeds of its show (`show`,
  /// see `ShowIdentity`) for what they finished. Throws when the library cannot be read: a
  /// damaged database must not make downloaded episodes look new.
  public init(store: LibraryStore?, feedURL: String, show: String? = nil) throws {
    self.init(
      store: store, feedURL: feedURL,
      rows: try store.map { try DownloadRows(store: $0).all() } ?? [],
      sameShow: try store.map {
        try FinishedDownloads(store: $0).feedsOfSameShow(as: feedURL, show: show)
      } ?? [])
  }

  /// `rows`: the library's downloads (`DownloadRows.all`), read once for readers of several
  /// feeds; `sameShow`: the show's other feeds (`FinishedDownloads.feedsOfSameShow`).
  package init(
    store: LibraryStore?, feedURL: String, rows: [DownloadRecord], sameShow: Set<String>
  ) {
    self.store = store
    self.feedURL = feedURL
    byURL = Dictionary(rows.map { ($0.url, $0) }, uniquingKeysWith: { first, _ in first })
    byKey = Dictionary(rows.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    listedByKey = Dictionary(
      rows.compactMap { row in row.feedURL == feedURL ? row.episodeKey.map { ($0, row) } : nil },
      uniquingKeysWith: { first, _ in first })
    // This feed's own first, then those of the show's other feeds.
    let finished = rows.filter { $0.state == .done }
    let own = finished.filter { $0.feedURL == feedURL }
    let others = finished.filter { $0.feedURL.map(sameShow.contains) == true }
    finishedByKey = Dictionary(
      (own + others).compactMap { row in row.episodeKey.map { ($0, row) } },
      uniquingKeysWith: { first, _ in first })
  }

  /// Whether there is a library to read: without one every episode is new.
  public var hasLibrary: Bool { store != nil }

  /// `keys`: the episode's identity keys (`EpisodeIdentity.distinctKeys`), so an episode
  /// whose URL changed still shows as downloaded.
  public func status(of url: String, keys: [String] = []) -> EpisodeDownloadStatus {
    guard let store else { return .new }
    let finished = [byURL[url]].compactMap { $0 } + keys.compactMap { finishedByKey[$0] }
    if let done = finished.first(where: { Self.isFinished($0) }), let file = done.file {
      return EpisodeDownloadStatus(state: .downloaded, progress: 1, file: file)
    }
    // The episode's row, found as a download of it would find it: its key, another of its
    // keys in this feed, its URL.
    let row =
      byKey[DownloadKey(feedURL: feedURL, episodeKey: keys.first, url: url)]
      ?? keys.lazy.compactMap { listedByKey[$0] }.first ?? byURL[url]
    // The partial file is the truth about bytes: the row is written only once a second.
    guard let row, let bytes = DownloadRows(store: store).partialSize(of: row), bytes > 0 else {
      let wasDownloaded = finished.contains { $0.state == .done } || row?.state == .done
      return wasDownloaded ? EpisodeDownloadStatus(state: .deleted, progress: 0, file: nil) : .new
    }
    let total = row.total
    let fraction = total.map { $0 > 0 ? min(1, Double(bytes) / Double($0)) : 0 } ?? 0
    return EpisodeDownloadStatus(state: .partial, progress: fraction, file: nil)
  }

  private static func isFinished(_ record: DownloadRecord) -> Bool {
    record.state == .done
      && record.file.map { FileManager.default.fileExists(atPath: $0) } == true
  }
}
