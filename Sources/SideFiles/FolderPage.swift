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
/// downloads whose files are on disk (`FolderViews`), never from a listing of the folder, so a
/// partial, a temporary or a file of the user's own is never on it. It is written only when
/// asked for; once there, every run that adds, removes or marks the folder's episodes keeps it
/// up to date, at the end of the run (reading every episode's chapters and transcript for each
/// round of a large first sync would cost the square of its episodes). A folder's
/// `index.html` that podcast did not write is left as it is.
public struct FolderPage: Sendable, Equatable, FolderView {
  public let folder: String

  public init(folder: String) {
    self.folder = StandardPath.of(folder)
  }

  public var path: String { Self.path(inFolder: folder) }

  package static func path(inFolder folder: String) -> String {
    folder + "/" + ArchivePage.fileName
  }

  /// Brings the page in line with the library. `asked` false: only a page already there is
  /// kept up to date (or removed with the last episode).
  public func update(store: LibraryStore, asked: Bool) throws(FolderViewError) -> FolderViewChange {
    try FolderViews.update(
      Self.self, folder: folder, request: FolderRequest(page: asked), store: store)
  }

  package static func contents(
    of episodes: FolderEpisodes, request: FolderRequest, existing: Data?
  ) -> FolderViewContents {
    if let existing, !isOurs(existing) { return .leave }
    guard request.page || existing != nil else { return .leave }
    let view = FolderPage(folder: episodes.folder)
    guard let page = view.page(of: episodes.records, playStates: episodes.playStates) else {
      return .none
    }
    return .file(Data(page.text.utf8), entries: page.items.count)
  }

  package static let isWrittenOnArrival = false

  package static let isWrittenOnlyWhenAsked = true

  /// A page marks what was played.
  package static let showsPlays = true

  package static func isAsked(by request: FolderRequest) -> Bool { request.page }

  package static func cannotWrite(path: String, reason: String) -> FolderViewError {
    .cannotWritePage(path: path, reason: reason)
  }

  package static func cannotRemove(path: String, reason: String) -> FolderViewError {
    .cannotRemovePage(path: path, reason: reason)
  }

  /// The index of each Episodes directory follows a page written or removed, and a folder
  /// pruned with its page; a library without pages gets none.
  package static func updateEpisodesDirectories(
    touched: [String], changed: Set<String>, staging: String
  ) -> [FolderViewError] {
    var failures: [FolderViewError] = []
    for root in touched
    where changed.contains(root)
      || FolderFeed.regularFileSize(root + "/" + ArchiveIndex.fileName) != nil
    {
      do throws(FolderViewError) {
        try ArchiveIndex(episodesDirectory: root).update(staging: staging)
      } catch {
        failures.append(error)
      }
    }
    return failures
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
      if cues.isEmpty, PageTranscript.mayHoldCues(fileName: sideName),
        let data = FileBytes.read(side)
      {
        cues = PageTranscript.cues(data, fileName: sideName)
      }
    }
    let recordTitle = record.episodeTitle.trimmingWhitespace.isEmpty ? nil : record.episodeTitle
    return ArchivePage.Item(
      title: archive?.title ?? recordTitle ?? (relative as NSString).deletingPathExtension,
      published: archive?.published ?? record.published, duration: archive?.duration,
      length: length, played: played, showNotes: archive?.showNotes, file: relative,
      chapters: chapters, transcripts: transcripts, cues: cues)
  }
}
