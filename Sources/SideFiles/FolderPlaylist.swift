import Basics
import Foundation
import Model
import Store
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `<podcast folder>/<podcast folder>.m3u8`: the podcast's episodes, newest first, for players
/// and media servers that open a folder's playlist (car stereos, phones synced by folder,
/// Jellyfin). Made from the library's finished downloads, not from a listing of the folder, so
/// a partial file, a transcript, a cover or a file of the user's own is never in it. Rewritten
/// after every run that adds or removes episodes in the folder, removed with the last one.
public struct FolderPlaylist: Sendable, Equatable {
  /// The podcast folder: the first folder below an Episodes directory.
  public let folder: String

  public init(folder: String) {
    self.folder = StandardPath.of(folder)
  }

  public var path: String { folder + "/" + Self.fileName(inFolder: folder) }

  /// `Show/Show.m3u8`: named after its folder, so a player that lists several folders' playlists
  /// side by side tells them apart.
  package static func fileName(inFolder folder: String) -> String {
    StandardPath.lastComponent(of: folder) + ".m3u8"
  }

  /// What happened to the playlist file.
  public enum Change: Sendable, Equatable {
    case written(entries: Int)
    case removed
    /// It already said exactly this (or there is neither an episode nor a playlist).
    case unchanged
  }

  /// Brings the playlist in line with the library: written when the folder has episodes,
  /// removed when it has none. Files that were deleted behind the library's back are left out.
  public func update(store: LibraryStore) throws(PlaylistError) -> Change {
    Self.removeAbandonedTemporaries(in: store.paths.stateDirectory)
    return try updateStaged(store: store)
  }

  /// `update` once the state folder is clear of abandoned temporaries: a run clears it once
  /// for all its folders instead of listing it again for each.
  private func updateStaged(store: LibraryStore) throws(PlaylistError) -> Change {
    switch try step(store: store) {
    case .done(let change):
      return change
    case .write(let playlist):
      try playlist.write(to: path, staging: store.paths.stateDirectory)
      return .written(entries: playlist.entries.count)
    }
  }

  /// What is left to do once the folder is looked at: nothing, or write a playlist.
  private enum Step {
    case done(Change)
    case write(Playlist)
  }

  /// All of `updateStaged` but the write, which `update(foldersOf:...)` makes for many
  /// folders together.
  private func step(store: LibraryStore) throws(PlaylistError) -> Step {
    let records: [DownloadRecord]
    do {
      records = try FinishedDownloads(store: store).under(folder)
    } catch {
      throw .cannotWrite(path: path, reason: String(describing: error))
    }
    return try step(records: records)
  }

  /// `step` with the folder's finished downloads (`FinishedDownloads.under(_:)`).
  private func step(records: [DownloadRecord]) throws(PlaylistError) -> Step {
    Self.removeAbandonedTemporaries(in: folder)
    let playlist = Playlist(entries: Self.entries(records.filter { Self.isRegularFile($0.file) }))
    guard !playlist.entries.isEmpty else { return .done(try remove()) }
    let text = playlist.text(at: path)
    // An unchanged file keeps its time stamp: media servers rescan what changed.
    if FileBytes.read(path) == Data(text.utf8) { return .done(.unchanged) }
    return .write(playlist)
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

  private func remove() throws(PlaylistError) -> Change {
    if unlink(path) == 0 {
      // The playlist was all that was left: the folder goes too, as with its last episode.
      rmdir(folder)
      return .removed
    }
    guard errno == ENOENT || errno == ENOTDIR else {
      throw .cannotRemove(path: path, reason: String(cString: strerror(errno)))
    }
    return .unchanged
  }

  /// A run killed between writing a playlist and renaming it left `.podcast-playlist-<owner>-…`
  /// (in the state folder, or beside the playlist when that is on another filesystem); one of
  /// a process still running is its write in progress and stays.
  private static func removeAbandonedTemporaries(in folder: String) {
    TemporaryName.removeAbandoned(in: folder, prefix: Playlist.temporaryPrefix)
  }

  private static func isRegularFile(_ path: String?) -> Bool {
    guard let path else { return false }
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }

  /// The podcast folders `files` are in (see `EpisodeRoots`), each once.
  public static func folders(of files: [String], episodesDirectories: [String]) -> [FolderPlaylist]
  {
    let roots = EpisodeRoots(episodesDirectories)
    var seen: Set<String> = []
    var folders: [FolderPlaylist] = []
    for file in files {
      guard let (_, folder) = roots.locate(file) else { continue }
      if seen.insert(folder).inserted { folders.append(FolderPlaylist(folder: folder)) }
    }
    return folders
  }

  /// Writes the playlists of the podcast folders `arriving` downloads are in, listing them
  /// though they are not recorded yet: a finish round's episodes, placed and about to be
  /// recorded. Each playlist's data is synced and its folder after its rename, so the round's
  /// sync of those folders, which makes the new episodes' names survive a power cut, is the
  /// playlists' too: one sync of each folder serves both.
  /// Returns the folders it synced, and the arriving files their playlists now list (written,
  /// or found saying so already). Best effort, never a failure of the round: the
  /// run's own look at its folders (`update`) writes (and says why it could not write) any
  /// this could not.
  package static func write(
    arriving: [DownloadRecord], episodesDirectories: [String], store: LibraryStore
  ) -> (synced: Set<String>, listed: Set<String>) {
    let roots = EpisodeRoots(episodesDirectories)
    var byFolder: [String: [DownloadRecord]] = [:]
    for record in arriving {
      guard let file = record.file, let (_, folder) = roots.locate(file) else { continue }
      byFolder[folder, default: []].append(record)
    }
    let folders = byFolder.keys.map { FolderPlaylist(folder: $0) }
    guard let recordedByFolder = try? FinishedDownloads(store: store).under(folders.map(\.folder))
    else {
      return ([], [])
    }
    var writes: [(playlist: Playlist, path: String)] = []
    var listing: [String: [String]] = [:]
    for (playlist, recorded) in zip(folders, recordedByFolder) {
      let records = byFolder[playlist.folder] ?? []
      removeAbandonedTemporaries(in: playlist.folder)
      let arrivingFiles = Set(records.compactMap(\.file))
      let listed = Playlist(
        entries: entries(
          (recorded.filter { !arrivingFiles.contains($0.file ?? "") } + records).filter {
            isRegularFile($0.file)
          }))
      guard !listed.entries.isEmpty else { continue }
      guard FileBytes.read(playlist.path) != Data(listed.text(at: playlist.path).utf8) else {
        listing[playlist.folder] = Array(arrivingFiles)
        continue
      }
      writes.append((listed, playlist.path))
      listing[playlist.folder] = Array(arrivingFiles)
    }
    let failures = Playlist.write(writes, staging: store.paths.stateDirectory)
    for (write, failure) in zip(writes, failures) where failure != nil {
      listing[StandardPath.directory(of: write.path)] = nil
    }
    let synced = Set(
      zip(writes, failures).compactMap { write, failure in
        failure == nil ? StandardPath.directory(of: write.path) : nil
      })
    return (synced, Set(listing.values.joined()))
  }

  /// Updates the playlist of every podcast folder `files` are in (see `folders(of:)`); one
  /// sentence per playlist that could not be brought up to date. Never fails the run: the
  /// episodes themselves are in place whatever happens here.
  ///
  /// Folders are independent (each playlist is its own file, written through its own
  /// temporary), so they are looked at a few at a time, and the playlists that changed are
  /// written together, their syncs made at once (`Playlist.write(_:staging:)`): a sync that
  /// added to 200 folders spent a fifth of its time on their two fsyncs each, four at a time.
  /// Failures come back in the order of the folders. A few hundred folders at a time, so what
  /// is read for them stays the same size however many there are.
  public static func update(
    foldersOf files: [String], episodesDirectories: [String], store: LibraryStore
  ) -> [PlaylistError] {
    let playlists = folders(of: files, episodesDirectories: episodesDirectories)
    guard !playlists.isEmpty else { return [] }
    removeAbandonedTemporaries(in: store.paths.stateDirectory)
    return stride(from: 0, to: playlists.count, by: 256).flatMap { start in
      update(Array(playlists[start..<min(start + 256, playlists.count)]), store: store)
    }
  }

  /// `update(foldersOf:...)` for some of its folders.
  private static func update(_ playlists: [FolderPlaylist], store: LibraryStore)
    -> [PlaylistError]
  {
    let failures = Mutex([Int: PlaylistError]())
    let changed = Mutex([Int: Playlist]())
    // Every folder's downloads in one read; a read that fails is each folder's failure.
    let recorded = Result { try FinishedDownloads(store: store).under(playlists.map(\.folder)) }
    let lanes = min(playlists.count, 4)
    DispatchQueue.concurrentPerform(iterations: lanes) { lane in
      for index in stride(from: lane, to: playlists.count, by: lanes) {
        do throws(PlaylistError) {
          let records: [DownloadRecord]
          switch recorded {
          case .success(let all): records = all[index]
          case .failure(let error):
            throw .cannotWrite(path: playlists[index].path, reason: String(describing: error))
          }
          if case .write(let playlist) = try playlists[index].step(records: records) {
            changed.withLock { $0[index] = playlist }
          }
        } catch {
          failures.withLock { $0[index] = error }
        }
      }
    }
    let writes = changed.withLock { found in
      found.keys.sorted().compactMap { index in found[index].map { (index, $0) } }
    }
    let written = Playlist.write(
      writes.map { (playlist: $0.1, path: playlists[$0.0].path) },
      staging: store.paths.stateDirectory)
    for ((index, _), failure) in zip(writes, written) {
      if let failure { failures.withLock { $0[index] = failure } }
    }
    return failures.withLock { found in found.keys.sorted().compactMap { found[$0] } }
  }
}
