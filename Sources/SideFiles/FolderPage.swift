import Basics
import Foundation
import Model
import Store

#if canImport(Glibc)
  import Glibc
#endif

/// `<podcast folder>/index.html` (`--write-page`): the folder's episodes as a page to browse
/// and play them in (`ArchivePage`), and `<Episodes>/index.html` listing every folder's page
/// (`ArchiveIndex`). Like the folder's playlist and feed it is made from the library's finished
/// downloads whose files are on disk, never from a listing of the folder, so a partial, a
/// temporary or a file of the user's own is never on it; written under a temporary name and
/// renamed, left untouched when it would say the same, and removed with the folder's last
/// episode. It is written only when asked for; once there, every run that adds, removes or
/// marks the folder's episodes keeps it up to date. A folder's `index.html` that podcast did
/// not write is never touched.
public struct FolderPage: Sendable, Equatable {
  public let folder: String

  public init(folder: String) {
    self.folder = StandardPath.of(folder)
  }

  public var path: String { folder + "/" + ArchivePage.fileName }

  public enum Change: Sendable, Equatable {
    case written(items: Int)
    case removed
    /// It already said exactly this, or there is no page and none was asked for.
    case unchanged
  }

  /// Brings the page in line with the library. `asked` false: only a page already there is
  /// kept up to date (or removed with the last episode). `playStates`: the library's, read
  /// once for many folders (nil: read here).
  public func update(
    store: LibraryStore, asked: Bool, playStates: [String: PlayState]? = nil
  ) throws(PlaylistError) -> Change {
    let existing = FileBytes.read(path)
    if let existing, !Self.isOurs(existing) {
      throw .cannotWritePage(path: path, reason: "it was not written by podcast; left as it is")
    }
    guard asked || existing != nil else { return .unchanged }
    let records: [DownloadRecord]
    let states: [String: PlayState]
    do {
      records = try store.finishedDownloads(under: folder)
      states = try playStates ?? store.playStates()
    } catch {
      throw .cannotWritePage(path: path, reason: String(describing: error))
    }
    guard let page = page(of: records, playStates: states) else { return try remove() }
    let data = Data(page.text.utf8)
    if existing == data { return .unchanged }
    try ArchiveIndex.write(page.text, to: path, staging: store.paths.stateDirectory)
    return .written(items: page.items.count)
  }

  /// Whether a folder's `index.html` is a page podcast wrote (its generator is named in the
  /// head), which it may replace.
  static func isOurs(_ data: Data) -> Bool {
    let head = String(decoding: data.prefix(2048), as: UTF8.self)
    return head.contains("<meta name=\"generator\" content=\"podcast\">")
  }

  /// The page for these finished downloads, nil when none of them is on disk.
  package func page(of records: [DownloadRecord], playStates: [String: PlayState]) -> ArchivePage? {
    let name = StandardPath.lastComponent(of: folder)
    var newest: (date: Date, record: DownloadRecord)?
    var channel: ArchivedEpisode.Channel?
    var items: [(date: Date, item: ArchivePage.Item)] = []
    var listings: [String: [String]] = [:]
    for record in records {
      guard let file = record.file.map(StandardPath.of),
        file.hasPrefix(folder + "/"), let length = FolderFeed.regularFileSize(file)
      else { continue }
      let archive = record.archive.flatMap(ArchivedEpisode.init(encoded:))
      let date = archive?.published ?? record.published ?? record.updatedAt
      let isNewest = newest.map { date > $0.date } ?? true
      if isNewest { newest = (date, record) }
      if let podcast = archive?.podcast, isNewest || channel == nil { channel = podcast }
      let directory = StandardPath.directory(of: file)
      let names =
        listings[directory]
        ?? ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
      listings[directory] = names
      let played = record.episodeKey.flatMap { playStates[$0]?.played } ?? false
      items.append(
        (
          date,
          item(
            file: file, length: length, record: record, archive: archive, played: played,
            sideFiles: SideFileNames.existing(besides: file, among: names))
        ))
    }
    guard let newest else { return nil }
    items.sort { $0.date != $1.date ? $0.date > $1.date : $0.item.file < $1.item.file }
    let title =
      [channel?.title, newest.record.podcastTitle, name].compactMap { $0 }
      .first { !$0.trimmingWhitespace.isEmpty } ?? name
    let existing = { (relative: String) -> String? in
      FolderFeed.regularFileSize(folder + "/" + relative) == nil ? nil : relative
    }
    return ArchivePage(
      channel: ArchivePage.Channel(
        title: title, author: channel?.author, description: channel?.description,
        language: channel?.language, cover: FolderCovers.names.first { existing($0) != nil },
        feed: existing(ArchiveFeed.fileName),
        playlist: existing(FolderPlaylist.fileName(inFolder: folder))),
      items: items.map(\.item))
  }

  private func item(
    file: String, length: Int64, record: DownloadRecord, archive: ArchivedEpisode?,
    played: Bool, sideFiles: [String]
  ) -> ArchivePage.Item {
    let relative = String(file.dropFirst(folder.count + 1))
    let stem = (StandardPath.lastComponent(of: file) as NSString).deletingPathExtension
    var chapters: [PageChapters.Mark] = []
    var transcripts: [String] = []
    var cues: [PageTranscript.Cue] = []
    // The first transcript (`<name>.<ext>`) before those `--all-transcripts` added.
    let ordered = sideFiles.sorted { first, second in
      let (a, b) = (StandardPath.lastComponent(of: first), StandardPath.lastComponent(of: second))
      let (aDots, bDots) = (
        a.dropFirst(stem.count).count { $0 == "." }, b.dropFirst(stem.count).count { $0 == "." }
      )
      return aDots != bDots ? aDots < bDots : a < b
    }
    for side in ordered {
      let sideName = StandardPath.lastComponent(of: side)
      if sideName.hasSuffix(".chapters.json") {
        chapters = FileBytes.read(side).map(PageChapters.marks) ?? []
        continue
      }
      if sideName.hasSuffix(".info.json") { continue }
      transcripts.append(String(side.dropFirst(folder.count + 1)))
      if cues.isEmpty, let format = PageTranscript.Format(fileName: sideName),
        let data = FileBytes.read(side)
      {
        cues = PageTranscript.cues(data, format: format)
      }
    }
    let recordTitle = record.episodeTitle.trimmingWhitespace.isEmpty ? nil : record.episodeTitle
    return ArchivePage.Item(
      title: archive?.title ?? recordTitle ?? (relative as NSString).deletingPathExtension,
      published: archive?.published ?? record.published, duration: archive?.duration,
      length: length, played: played, showNotes: archive?.showNotes, file: relative,
      chapters: chapters, transcripts: transcripts, cues: cues)
  }

  private func remove() throws(PlaylistError) -> Change {
    if unlink(path) == 0 {
      rmdir(folder)
      return .removed
    }
    guard errno == ENOENT || errno == ENOTDIR else {
      throw .cannotRemovePage(path: path, reason: String(cString: strerror(errno)))
    }
    return .unchanged
  }

  /// Updates the page of every podcast folder `files` are in, each asked for when any of its
  /// files says so, then `index.html` (and the shared files) of each Episodes directory whose
  /// pages changed or that has an index already. One sentence per file that could not be
  /// brought up to date; never fails the run.
  public static func update(
    foldersOf files: [(file: String, asked: Bool)], episodesDirectories: [String],
    store: LibraryStore
  ) -> [PlaylistError] {
    let roots = EpisodeRoots(episodesDirectories)
    var order: [String] = []
    var asked: [String: Bool] = [:]
    var touchedRoots: [String] = []
    for (file, wanted) in files {
      guard let (root, folder) = roots.locate(file) else { continue }
      if !touchedRoots.contains(root) { touchedRoots.append(root) }
      if let known = asked[folder] {
        asked[folder] = known || wanted
      } else {
        order.append(folder)
        asked[folder] = wanted
      }
    }
    // Only folders with a page or asked for one need the library's play states.
    let concerned = order.filter {
      asked[$0] == true || FolderFeed.regularFileSize($0 + "/" + ArchivePage.fileName) != nil
    }
    guard !concerned.isEmpty else { return [] }
    var failures: [PlaylistError] = []
    let states: [String: PlayState]
    do {
      states = try store.playStates()
    } catch {
      return concerned.map {
        .cannotWritePage(path: $0 + "/" + ArchivePage.fileName, reason: String(describing: error))
      }
    }
    var changedRoots: Set<String> = []
    for folder in concerned {
      do throws(PlaylistError) {
        let change = try FolderPage(folder: folder).update(
          store: store, asked: asked[folder] ?? false, playStates: states)
        if change != .unchanged { changedRoots.insert(StandardPath.directory(of: folder)) }
      } catch {
        failures.append(error)
      }
    }
    for root in touchedRoots
    where changedRoots.contains(root)
      || FolderFeed.regularFileSize(root + "/" + ArchiveIndex.fileName) != nil
    {
      do throws(PlaylistError) {
        try ArchiveIndex(episodesDirectory: root).update(staging: store.paths.stateDirectory)
      } catch {
        failures.append(error)
      }
    }
    return failures
  }
}
