import Basics
import Feeds
import Foundation
import Model
import Store

#if canImport(Glibc)
  import Glibc
#endif

/// What a run was asked for about folder feeds: `--write-feed` (or the subscription's
/// setting), with the URL the Episodes directory is served at, if any.
public struct FeedRequest: Sendable, Hashable {
  /// Nil: links relative to the feed, for a web server serving the folder as it is.
  public var baseURL: FeedBaseURL?

  public init(baseURL: FeedBaseURL? = nil) {
    self.baseURL = baseURL
  }
}

/// `<podcast folder>/feed.xml`: a private feed of the episodes the library downloaded into the
/// folder (see `ArchiveFeed`), so a podcast app on a phone can subscribe to the archive on a
/// home server, and `<Episodes>/feeds.opml` listing every folder's feed. Like the folder
/// playlist it is made from the library's finished downloads (`FolderViews`). It is written
/// only when asked for; once there, every run that adds or removes the folder's episodes keeps
/// it up to date, with the base URL its own self link names.
public struct FolderFeed: Sendable, Equatable, FolderView {
  public let folder: String

  public init(folder: String) {
    self.folder = StandardPath.of(folder)
  }

  public var path: String { Self.path(inFolder: folder) }

  package static func path(inFolder folder: String) -> String {
    folder + "/" + ArchiveFeed.fileName
  }

  /// Brings the feed in line with the library. `request` nil: only a feed already there is
  /// kept up to date (or removed with the last episode).
  public func update(store: LibraryStore, request: FeedRequest?) throws(FolderViewError)
    -> FolderViewChange
  {
    try FolderViews.update(
      Self.self, folder: folder, request: FolderRequest(feed: request), store: store)
  }

  package static func contents(
    of episodes: FolderEpisodes, request: FolderRequest, existing: Data?
  ) -> FolderViewContents {
    let text = existing.flatMap { String(data: $0, encoding: .utf8) }
    guard request.feed != nil || text != nil else { return .leave }
    let view = FolderFeed(folder: episodes.folder)
    let baseURL = request.feed.map(\.baseURL) ?? text.flatMap(view.baseURL(selfLinkedIn:))
    guard let feed = view.feed(of: episodes.records, baseURL: baseURL) else { return .none }
    return .file(Data(feed.text.utf8), entries: feed.items.count)
  }

  /// Made when a run asks for it, at the end of the run.
  package static let isWrittenOnArrival = false

  package static let isWrittenOnlyWhenAsked = true

  package static func isAsked(by request: FolderRequest) -> Bool { request.feed != nil }

  package static func cannotWrite(path: String, reason: String) -> FolderViewError {
    .cannotWriteFeed(path: path, reason: reason)
  }

  package static func cannotRemove(path: String, reason: String) -> FolderViewError {
    .cannotRemoveFeed(path: path, reason: reason)
  }

  /// The list of every folder's feed follows a feed written or removed, and a folder pruned
  /// with its feed; a run in a library without feeds lists no folder.
  package static func updateEpisodesDirectories(
    touched: [String], changed: Set<String>, staging: String
  ) -> [FolderViewError] {
    var failures: [FolderViewError] = []
    for root in touched
    where changed.contains(root) || regularFileSize(root + "/" + FeedList.fileName) != nil {
      do throws(FolderViewError) {
        try FeedList(episodesDirectory: root).update(staging: staging)
      } catch {
        failures.append(error)
      }
    }
    return failures
  }

  /// The feed for these finished downloads, nil when none of them is on disk.
  package func feed(of records: [DownloadRecord], baseURL: FeedBaseURL?) -> ArchiveFeed? {
    let name = (folder as NSString).lastPathComponent
    var newest: (date: Date, record: DownloadRecord, archive: ArchivedEpisode?)?
    var channel: ArchivedEpisode.Channel?
    var items: [(date: Date, item: ArchiveFeed.Item)] = []
    // Each directory listed once, not once per episode, for the side files beside them.
    var listings: [String: [String]] = [:]
    for record in records {
      guard let file = record.file.map(StandardPath.of),
        file.hasPrefix(folder + "/"), let length = Self.regularFileSize(file)
      else { continue }
      let archive = record.archive.flatMap(ArchivedEpisode.init(encoded:))
      let date = archive?.published ?? record.published ?? record.updatedAt
      let isNewest = newest.map { date > $0.date } ?? true
      if isNewest { newest = (date, record, archive) }
      // The channel as the newest episode that kept one described it.
      if let podcast = archive?.podcast, isNewest || channel == nil { channel = podcast }
      let directory = (file as NSString).deletingLastPathComponent
      let names =
        listings[directory]
        ?? ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
      listings[directory] = names
      let sideFiles = SideFileNames.existing(besides: file, among: names)
      items.append(
        (
          date,
          item(file: file, length: length, record: record, archive: archive, sideFiles: sideFiles)
        ))
    }
    guard let newest else { return nil }
    items.sort { $0.date != $1.date ? $0.date > $1.date : $0.item.file < $1.item.file }
    let title =
      [channel?.title, newest.record.podcastTitle, name].compactMap { $0 }
      .first { !$0.trimmingWhitespace.isEmpty } ?? name
    let cover = FolderCovers.names.first {
      Self.regularFileSize(folder + "/" + $0) != nil
    }
    return ArchiveFeed(
      channel: ArchiveFeed.Channel(
        title: title, author: channel?.author, description: channel?.description,
        language: channel?.language, cover: cover),
      items: items.map(\.item), folderName: name, baseURL: baseURL)
  }

  private func item(
    file: String, length: Int64, record: DownloadRecord, archive: ArchivedEpisode?,
    sideFiles: [String]
  ) -> ArchiveFeed.Item {
    let relative = String(file.dropFirst(folder.count + 1))
    let ext = (file as NSString).pathExtension
    var transcripts: [(file: String, type: String, language: String?)] = []
    var chapters: String?
    let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
    for side in sideFiles.sorted() {
      let sideRelative = String(side.dropFirst(folder.count + 1))
      let name = (side as NSString).lastPathComponent
      if name.hasSuffix(".chapters.json") {
        chapters = sideRelative
        continue
      }
      let rest = name.dropFirst(stem.count + 1).split(separator: ".")
      let language = rest.count == 2 && Int(rest[0]) == nil ? String(rest[0]) : nil
      let type = Self.transcriptTypes[String(rest.last ?? "").lowercased()] ?? "text/plain"
      transcripts.append((sideRelative, type, language))
    }
    let recordTitle = record.episodeTitle.trimmingWhitespace.isEmpty ? nil : record.episodeTitle
    let keyGUID = record.episodeKey.flatMap {
      $0.hasPrefix("guid:") ? String($0.dropFirst(5)) : nil
    }
    return ArchiveFeed.Item(
      title: archive?.title ?? recordTitle ?? (relative as NSString).deletingPathExtension,
      guid: archive?.guid ?? keyGUID,
      published: archive?.published ?? record.published,
      showNotes: archive?.showNotes, duration: archive?.duration, season: archive?.season,
      number: archive?.number, episodeType: archive?.episodeType, explicit: archive?.explicit,
      file: relative, length: length,
      mimeType: MediaType.type(ofExtension: ext) ?? archive?.mimeType
        ?? "application/octet-stream",
      transcripts: transcripts, chapters: chapters)
  }

  private static let transcriptTypes = [
    "vtt": "text/vtt", "srt": "application/srt", "json": "application/json",
    "html": "text/html", "txt": "text/plain",
  ]

  /// The base URL the feed's own `atom:link rel="self"` was made from; nil for relative links.
  private func baseURL(selfLinkedIn text: String) -> FeedBaseURL? {
    guard let start = text.range(of: "<atom:link href=\"") else { return nil }
    guard let end = text[start.upperBound...].firstIndex(of: "\"") else { return nil }
    let href = XMLText.unescaped(String(text[start.upperBound..<end]))
    let tail =
      FeedBaseURL.encodedSegment((folder as NSString).lastPathComponent) + "/"
      + ArchiveFeed.fileName
    guard href.hasSuffix(tail) else { return nil }
    return try? FeedBaseURL(String(href.dropLast(tail.count)))
  }

  package static func regularFileSize(_ path: String) -> Int64? {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int64(info.st_size)
  }
}

/// `<Episodes>/feeds.opml`: every podcast folder's `feed.xml`, so a podcast app subscribes to
/// the whole archive at once. Made from the feeds on disk; removed with the last of them.
public struct FeedList: Sendable {
  public let episodesDirectory: String

  public init(episodesDirectory: String) {
    self.episodesDirectory = URL(fileURLWithPath: episodesDirectory).standardizedFileURL.path
  }

  package static let fileName = "feeds.opml"
  public var path: String { episodesDirectory + "/" + Self.fileName }

  public func update(staging: String?) throws(FolderViewError) {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: episodesDirectory)) ?? [])
      .sorted()
    var outlines: [(title: String, url: String)] = []
    for name in names where !name.hasPrefix(".") {
      let feed = episodesDirectory + "/" + name + "/" + ArchiveFeed.fileName
      guard FolderFeed.regularFileSize(feed) != nil, let text = Self.head(of: feed) else {
        continue
      }
      let title = Self.value(between: "<title>", and: "</title>", in: text) ?? name
      let url =
        Self.value(between: "<atom:link href=\"", and: "\"", in: text)
        ?? FeedBaseURL.encodedPath([name, ArchiveFeed.fileName])
      outlines.append((title, url))
    }
    guard !outlines.isEmpty else {
      if unlink(path) != 0 && errno != ENOENT {
        throw .cannotRemoveFeed(path: path, reason: String(cString: strerror(errno)))
      }
      return
    }
    var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    text += "<opml version=\"2.0\">\n  <head>\n    <title>Podcast archive</title>\n  </head>\n"
    text += "  <body>\n"
    for outline in outlines {
      let title = ArchiveFeed.escaped(outline.title)
      text += "    <outline type=\"rss\" text=\"\(title)\" title=\"\(title)\""
      text += " xmlUrl=\"\(ArchiveFeed.escaped(outline.url))\"/>\n"
    }
    text += "  </body>\n</opml>\n"
    if (try? String(contentsOfFile: path, encoding: .utf8)) == text { return }
    let data = Data(text.utf8)
    var code = AtomicFile.write(
      data, to: path, prefix: Playlist.temporaryPrefix, in: staging ?? episodesDirectory)
    if code == EXDEV {
      code = AtomicFile.write(
        data, to: path, prefix: Playlist.temporaryPrefix, in: episodesDirectory)
    }
    if let code { throw .cannotWriteFeed(path: path, reason: String(cString: strerror(code))) }
  }

  /// The start of a feed, where its channel's title and self link are: not its items, which
  /// can be megabytes of show notes.
  private static func head(of path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 16_384) else { return nil }
    let text = String(decoding: data, as: UTF8.self)
    guard let end = text.range(of: "<item>") else { return text }
    return String(text[..<end.lowerBound])
  }

  private static func value(between open: String, and close: String, in text: String) -> String? {
    guard let start = text.range(of: open),
      let end = text.range(of: close, range: start.upperBound..<text.endIndex)
    else { return nil }
    return XMLText.unescaped(String(text[start.upperBound..<end.lowerBound]))
  }
}
