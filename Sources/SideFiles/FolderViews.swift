import Basics
import Foundation
import Model
import Store
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Keeps the views of podcast folders (`FolderView`) in step with the library, for every view
/// at once: after a run (`update`), and in a finish round for the views written on arrival
/// (`write(arriving:episodesDirectories:store:)`). Each file is written under a temporary name
/// and renamed (in the library's state folder when it can, so a run killed mid-write leaves
/// nothing beside it), left untouched when it would say the same, and removed with the
/// folder's last episode, the folder going with it when nothing else is left. A view that
/// cannot be brought up to date is one sentence, never a failed run: the episodes themselves
/// are in place whatever happens here.
public enum FolderViews {
  /// Every view a podcast folder can have, in the order they are looked at and told about.
  /// The feed goes first: a folder left empty goes with its last view; the page last, as it
  /// links the feed and the playlist when the folder has them.
  package static let all: [any FolderView.Type] = [
    FolderFeed.self, FolderPlaylist.self, FolderPage.self,
  ]

  /// Folders looked at per read of the library, so what is read for them stays the same size
  /// however many there are.
  private static let batch = 256

  /// Brings the views of every podcast folder `files` are in up to date, each view with the
  /// first request any file of its folder made; each file says which views it concerns
  /// (`TouchedFile.Kind`). One sentence per view that could not be brought up to date: for
  /// each view in `all`'s order, its folders' in theirs, then those of what follows it in an
  /// Episodes directory (`feeds.opml`).
  ///
  /// Folders are independent (each view is its own file), so they are looked at a few at a
  /// time, and the files that changed are written together, their syncs made at once
  /// (`AtomicFile.write`): a sync that added to 200 folders spent a fifth of its time on
  /// their two fsyncs each, four at a time.
  public static func update(
    _ files: [TouchedFile], episodesDirectories: [String], store: LibraryStore
  ) -> [FolderViewError] {
    update(files, views: all, episodesDirectories: episodesDirectories, store: store)
  }

  /// `update` of `views` (`all`, but for a test's own).
  package static func update(
    _ files: [TouchedFile], views: [any FolderView.Type], episodesDirectories: [String],
    store: LibraryStore
  ) -> [FolderViewError] {
    let roots = EpisodeRoots(episodesDirectories)
    var order: [String] = []
    var folders: [String: Folder] = [:]
    for touched in files {
      guard let (root, folder) = roots.locate(touched.file) else { continue }
      if folders[folder] == nil { order.append(folder) }
      folders[folder, default: Folder(root: root, request: touched.request)].add(
        touched, views: views)
    }
    let looked = order.compactMap { path in
      folders[path].flatMap { $0.views.isEmpty ? nil : (path, $0) }
    }
    guard !looked.isEmpty else { return [] }
    let staging = store.paths.stateDirectory
    TemporaryName.removeAbandoned(in: staging, prefix: Playlist.temporaryPrefix)
    var outcomes: [[Int: Result<FolderViewChange, FolderViewError>]] = []
    for start in stride(from: 0, to: looked.count, by: batch) {
      outcomes += update(
        Array(looked[start..<min(start + batch, looked.count)]), views: views, staging: staging,
        store: store)
    }
    var failures: [FolderViewError] = []
    for (index, view) in views.enumerated() {
      var touched: [String] = []
      var changed: Set<String> = []
      for ((_, folder), outcome) in zip(looked, outcomes) {
        guard let result = outcome[index] else { continue }
        if !touched.contains(folder.root) { touched.append(folder.root) }
        switch result {
        case .success(.unchanged): break
        case .success: changed.insert(folder.root)
        case .failure(let error): failures.append(error)
        }
      }
      failures += view.updateEpisodesDirectories(
        touched: touched, changed: changed, staging: staging)
    }
    return failures
  }

  /// A folder as `update` finds it in the files it is given.
  private struct Folder {
    var root: String
    var request: FolderRequest
    /// The indexes of the views to look at.
    var views: Set<Int> = []

    mutating func add(_ touched: TouchedFile, views all: [any FolderView.Type]) {
      request = request.merged(with: touched.request)
      for (index, view) in all.enumerated() where touched.concerns(view) {
        views.insert(index)
      }
    }
  }

  /// `update` of some of its folders: each folder's outcome of each view it looks at, by the
  /// view's index in `all`.
  private static func update(
    _ folders: [(path: String, folder: Folder)], views all: [any FolderView.Type],
    staging: String, store: LibraryStore
  ) -> [[Int: Result<FolderViewChange, FolderViewError>]] {
    let outcomes = Mutex(
      [[Int: Result<FolderViewChange, FolderViewError>]](
        repeating: [:], count: folders.count))
    let writes = Mutex([(folder: Int, view: Int, write: Write)]())
    // A view made only when asked, neither asked for nor there, stays as it is whatever the
    // folder holds (`FolderView.contents`): known without reading the folder's downloads, so
    // a sync's folders with only a playlist, written as their episodes arrived, read nothing.
    let looks = folders.map { path, folder in
      folder.views.filter { index in
        let view = all[index]
        return !view.isWrittenOnlyWhenAsked || view.isAsked(by: folder.request)
          || access(view.path(inFolder: path), F_OK) == 0
      }
    }
    let reading = looks.indices.filter { !looks[$0].isEmpty }
    // Those folders' downloads in one read, with the plays the pages show when a folder has
    // a page or asks for one; a read that fails is each view's failure.
    let showsPlays = looks.contains { $0.contains { all[$0].showsPlays } }
    let recorded = Result {
      (
        reading.isEmpty
          ? [:]
          : try Dictionary(
            uniqueKeysWithValues: zip(
              reading, FinishedDownloads(store: store).under(reading.map { folders[$0].path }))),
        showsPlays ? try PlayStates(store: store).all() : [:]
      )
    }
    let lanes = min(folders.count, 4)
    DispatchQueue.concurrentPerform(iterations: lanes) { lane in
      for index in stride(from: lane, to: folders.count, by: lanes) {
        let (path, folder) = folders[index]
        var outcome: [Int: Result<FolderViewChange, FolderViewError>] = [:]
        for view in folder.views where !looks[index].contains(view) {
          outcome[view] = .success(.unchanged)
        }
        switch recorded {
        case _ where looks[index].isEmpty: break
        case .failure(let error):
          for view in looks[index] {
            outcome[view] = .failure(
              all[view].cannotWrite(
                path: all[view].path(inFolder: path), reason: String(describing: error)))
          }
        case .success(let (byFolder, playStates)):
          TemporaryName.removeAbandoned(in: path, prefix: Playlist.temporaryPrefix)
          let episodes = FolderEpisodes(
            folder: path, records: byFolder[index] ?? [], playStates: playStates)
          var removed = false
          for view in looks[index].sorted() {
            do throws(FolderViewError) {
              switch try look(all[view], at: episodes, request: folder.request) {
              case .unchanged: outcome[view] = .success(.unchanged)
              case .removed:
                outcome[view] = .success(.removed)
                removed = true
              case .write(let write):
                writes.withLock { $0.append((index, view, write)) }
              }
            } catch {
              outcome[view] = .failure(error)
            }
          }
          // Its views were all that was left: the folder goes too, as with its last episode.
          if removed { rmdir(path) }
        }
        outcomes.withLock { $0[index] = outcome }
      }
    }
    let pending = writes.withLock { found in
      found.sorted { ($0.folder, $0.view) < ($1.folder, $1.view) }
    }
    let written = write(pending.map(\.write), staging: staging)
    return outcomes.withLock { outcomes in
      for (entry, failure) in zip(pending, written) {
        outcomes[entry.folder][entry.view] =
          failure.map { .failure($0) } ?? .success(.written(entries: entry.write.entries))
      }
      return outcomes
    }
  }

  /// Brings the one view `view` of `folder` in line with the library, `request` being what
  /// the run asks of it.
  package static func update(
    _ view: any FolderView.Type, folder: String, request: FolderRequest, store: LibraryStore
  ) throws(FolderViewError) -> FolderViewChange {
    let path = view.path(inFolder: folder)
    let staging = store.paths.stateDirectory
    TemporaryName.removeAbandoned(in: staging, prefix: Playlist.temporaryPrefix)
    let records: [DownloadRecord]
    let playStates: [String: PlayState]
    do {
      records = try FinishedDownloads(store: store).under(folder)
      playStates = view.showsPlays ? try PlayStates(store: store).all() : [:]
    } catch {
      throw view.cannotWrite(path: path, reason: String(describing: error))
    }
    TemporaryName.removeAbandoned(in: folder, prefix: Playlist.temporaryPrefix)
    let episodes = FolderEpisodes(folder: folder, records: records, playStates: playStates)
    switch try look(view, at: episodes, request: request) {
    case .unchanged: return .unchanged
    case .removed:
      rmdir(folder)
      return .removed
    case .write(let write):
      if let failure = Self.write([write], staging: staging)[0] { throw failure }
      return .written(entries: write.entries)
    }
  }

  /// What is left to do for one view of a folder once it is looked at.
  private enum Look {
    case unchanged
    /// Its file is gone; the folder may be empty now.
    case removed
    case write(Write)
  }

  /// One view's file to write.
  private struct Write: Sendable {
    var view: any FolderView.Type
    var path: String
    var data: Data
    var entries: Int
  }

  /// All of bringing `view` of `episodes`' folder in line but the write, which is made for
  /// many files together.
  private static func look(
    _ view: any FolderView.Type, at episodes: FolderEpisodes, request: FolderRequest
  ) throws(FolderViewError) -> Look {
    let path = view.path(inFolder: episodes.folder)
    let existing = FileBytes.read(path)
    switch view.contents(of: episodes, request: request, existing: existing) {
    case .leave:
      return .unchanged
    case .file(let data, let entries):
      // An unchanged file keeps its time stamp: media servers and phones rescan what changed.
      if existing == data { return .unchanged }
      return .write(Write(view: view, path: path, data: data, entries: entries))
    case .none:
      if unlink(path) == 0 { return .removed }
      guard errno == ENOENT || errno == ENOTDIR else {
        throw view.cannotRemove(path: path, reason: String(cString: strerror(errno)))
      }
      return .unchanged
    }
  }

  /// The files made and synced together (`AtomicFile.write`), each through a temporary in
  /// `staging` when it can be, else beside it (another filesystem, most likely); one failure
  /// or nil for each, in order.
  private static func write(_ writes: [Write], staging: String) -> [FolderViewError?] {
    let codes = AtomicFile.write(
      writes.map { (data: $0.data, path: $0.path) }, prefix: Playlist.temporaryPrefix,
      staging: staging)
    return zip(writes, codes).map { write, code in
      code.map { write.view.cannotWrite(path: write.path, reason: String(cString: strerror($0))) }
    }
  }

  /// Writes the views written on arrival (`FolderView.isWrittenOnArrival`) of the podcast
  /// folders `arriving` downloads are in, listing them though they are not recorded yet: a
  /// finish round's episodes, placed and about to be recorded. Each file's data is synced and
  /// its folder after its rename, so the round's sync of those folders, which makes the new
  /// episodes' names survive a power cut, is the views' too: one sync of each folder serves
  /// both.
  ///
  /// Returns the folders it synced, and the arriving files every such view of their folder
  /// now lists (written, or found saying so already). Best effort, never a failure of the
  /// round: the run's own look at its folders (`update`) writes (and says why it could not
  /// write) any this could not.
  package static func write(
    arriving: [DownloadRecord], episodesDirectories: [String], store: LibraryStore
  ) -> (synced: Set<String>, listed: Set<String>) {
    let views = all.filter { $0.isWrittenOnArrival }
    let roots = EpisodeRoots(episodesDirectories)
    var byFolder: [String: [DownloadRecord]] = [:]
    for record in arriving {
      guard let file = record.file, let (_, folder) = roots.locate(file) else { continue }
      byFolder[folder, default: []].append(record)
    }
    let folders = Array(byFolder.keys)
    guard !views.isEmpty,
      let recordedByFolder = try? FinishedDownloads(store: store).under(folders)
    else {
      return ([], [])
    }
    var writes: [(folder: String, write: Write)] = []
    var listing: [String: [String]] = [:]
    for (folder, recorded) in zip(folders, recordedByFolder) {
      let records = byFolder[folder] ?? []
      TemporaryName.removeAbandoned(in: folder, prefix: Playlist.temporaryPrefix)
      let arrivingFiles = Set(records.compactMap(\.file))
      let episodes = FolderEpisodes(
        folder: folder,
        records: recorded.filter { !arrivingFiles.contains($0.file ?? "") } + records)
      var listed = true
      for view in views {
        let path = view.path(inFolder: folder)
        let existing = FileBytes.read(path)
        switch view.contents(of: episodes, request: FolderRequest(), existing: existing) {
        case .leave: continue
        // Nothing on disk to list after all: the run's look at the folder sees to it.
        case .none: listed = false
        case .file(let data, let entries):
          if existing != data {
            writes.append(
              (folder, Write(view: view, path: path, data: data, entries: entries)))
          }
        }
      }
      if listed { listing[folder] = Array(arrivingFiles) }
    }
    let failures = write(writes.map(\.write), staging: store.paths.stateDirectory)
    for (write, failure) in zip(writes, failures) where failure != nil {
      listing[write.folder] = nil
    }
    let synced = Set(
      zip(writes, failures).compactMap { write, failure in failure == nil ? write.folder : nil })
    return (synced, Set(listing.values.joined()))
  }

  /// The podcast folders `files` are in (see `EpisodeRoots`), each once, in the order of the
  /// files.
  public static func folders(of files: [String], episodesDirectories: [String]) -> [String] {
    let roots = EpisodeRoots(episodesDirectories)
    var seen: Set<String> = []
    return files.compactMap { file in
      guard let (_, folder) = roots.locate(file), seen.insert(folder).inserted else { return nil }
      return folder
    }
  }
}
