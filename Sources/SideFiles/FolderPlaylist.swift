import Basics
import Foundation
import Model
import Store

#if canImport(Glibc)
  import Glibc
#endif

/// `<podcast folder>/<podcast folder>.m3u8`: the podcast's episodes, newest first, for players
/// and media servers that open a folder's playlist (car stereos, phones synced by folder,
/// Jellyfin). Made from the library's finished downloads, not from a listing of the folder, so
/// a partial file, a transcript, a cover or a file of the user's own is never in it. Every
/// folder with an episode has one; written in the finish round with the episodes it lists,
/// kept up to date by every run that adds or removes episodes in the folder, removed with the
/// last one (`FolderViews`).
public struct FolderPlaylist: Sendable, Equatable, FolderView {
  /// The podcast folder: the first folder below an Episodes directory.
  public let folder: String

  public init(folder: String) {
    self.folder = StandardPath.of(folder)
  }

  public var path: String { Self.path(inFolder: folder) }

  package static func path(inFolder folder: String) -> String {
    folder + "/" + fileName(inFolder: folder)
  }

  /// `Show/Show.m3u8`: named after its folder, so a player that lists several folders' playlists
  /// side by side tells them apart.
  package static func fileName(inFolder folder: String) -> String {
    StandardPath.lastComponent(of: folder) + ".m3u8"
  }

  /// Brings the playlist in line with the library: written when the folder has episodes,
  /// removed when it has none. Files that were deleted behind the library's back are left out.
  public func update(store: LibraryStore) throws(FolderViewError) -> FolderViewChange {
    try FolderViews.update(Self.self, folder: folder, request: FolderRequest(), store: store)
  }

  package static func contents(
    of episodes: FolderEpisodes, request: FolderRequest, existing: Data?
  ) -> FolderViewContents {
    let playlist = Playlist(
      entries: entries(episodes.records.filter { isRegularFile($0.file) }))
    guard !playlist.entries.isEmpty else { return .none }
    let text = playlist.text(at: path(inFolder: episodes.folder))
    return .file(Data(text.utf8), entries: playlist.entries.count)
  }

  /// The playlist lists each episode as it lands, synced with it (`FinishBatch`).
  package static let isWrittenOnArrival = true

  /// Every folder with an episode has one, asked for or not.
  package static func isAsked(by request: FolderRequest) -> Bool { false }

  package static func cannotWrite(path: String, reason: String) -> FolderViewError {
    .cannotWrite(path: path, reason: reason)
  }

  package static func cannotRemove(path: String, reason: String) -> FolderViewError {
    .cannotRemove(path: path, reason: reason)
  }

  /// Newest first by publication date, else by when it was downloaded; one day's episodes in
  /// path order, so the list never depends on which download finished first.
  package static func entries(_ records: [DownloadRecord]) -> [Playlist.Entry] {
    records.compactMap { record -> (date: Date, file: String, title: String?)? in
      guard let file = record.file else { return nil }
      let title = record.episodeTitle.isEmpty ? nil : record.episodeTitle
      return (record.published ?? record.updatedAt, file, title)
    }.sorted { first, second in
      first.date != second.date ? first.date > second.date : first.file < second.file
    }.map { Playlist.Entry(file: $0.file, title: $0.title) }
  }

  private static func isRegularFile(_ path: String?) -> Bool {
    guard let path else { return false }
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }
}
