import Basics
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `<Episodes>/index.html`: every podcast folder that has a page (`FolderPage`), with its
/// cover, title, episode count and newest date, and a box that filters them by title; and
/// beside it the stylesheet and script every page shares (`PageAssets`). Made from the
/// folders' pages on disk (the head of each, where they say what the index shows), so it
/// costs a few reads per folder, not the library's records; removed, with the shared files,
/// with the last page.
public struct ArchiveIndex: Sendable {
  public let episodesDirectory: String

  public init(episodesDirectory: String) {
    self.episodesDirectory = StandardPath.of(episodesDirectory)
  }

  package static let fileName = "index.html"
  public var path: String { episodesDirectory + "/" + Self.fileName }

  /// One folder as the index lists it.
  package struct Entry: Sendable, Equatable {
    /// The folder's name in the Episodes directory.
    package var folder: String
    package var title: String
    package var episodes: Int
    /// `2024-05-01`, or empty when no episode has a date.
    package var newest: String
    /// The cover, relative to the folder's page.
    package var cover: String?
  }

  /// The index's text for `entries`, in their order. Pure.
  package static func text(_ entries: [Entry]) -> String {
    var out = ""
    ArchivePage.head(title: "Podcast archive", assets: "", into: &out)
    out += "<body>\n<main>\n<h1>Podcast archive</h1>\n"
    out += "<p class=\"meta\">\(ArchivePage.count(entries.count, "podcast"))</p>\n"
    out += "<div class=\"filter\"><label for=\"filter\">Filter by title</label>"
    out += "<input type=\"search\" id=\"filter\">"
    out += "<span id=\"shown\" class=\"muted\" aria-live=\"polite\"></span></div>\n"
    out += "<ul class=\"podcasts\">\n"
    for entry in entries {
      let folder = FeedBaseURL.encodedSegment(entry.folder)
      out += "<li data-title=\"\(ArchivePage.escaped(entry.title))\">"
      out += "<a href=\"\(folder)/\(ArchivePage.fileName)\">"
      if let cover = entry.cover, Self.isRelativePath(cover) {
        out += "<img src=\"\(folder)/\(ShowNotesHTML.escaped(cover))\" alt=\"\" width=\"64\""
        out += " height=\"64\" loading=\"lazy\">"
      } else {
        out += "<span class=\"blank\"></span>"
      }
      out += "<span><span class=\"title\">\(ArchivePage.escaped(entry.title))</span>"
      var facts = [ArchivePage.count(entry.episodes, "episode")]
      if !entry.newest.isEmpty { facts.append("newest \(ShowNotesHTML.escaped(entry.newest))") }
      out += "<span class=\"meta\">\(facts.joined(separator: " · "))</span></span></a></li>\n"
    }
    out += "</ul>\n</main>\n</body>\n</html>\n"
    return out
  }

  /// A cover path read back from a page: a plain relative path, never a URL or `..`.
  private static func isRelativePath(_ path: String) -> Bool {
    !path.isEmpty && !path.contains(":") && !path.hasPrefix("/")
      && !path.split(separator: "/").contains("..")
  }

  /// Brings the index and the shared files in line with the folders' pages: written when any
  /// folder has one, removed when none has. Each file is written under a temporary name (in
  /// `staging` when it is on the same filesystem) and renamed, and left untouched when it
  /// already says the same.
  public func update(staging: String?) throws(FolderViewError) {
    if let existing = FileBytes.read(path), !FolderPage.isOurs(existing) {
      throw .cannotWritePage(path: path, reason: "it was not written by podcast; left as it is")
    }
    let entries = readEntries()
    let files: [(name: String, text: String)] = [
      (PageAssets.stylesheetName, PageAssets.stylesheet),
      (PageAssets.scriptName, PageAssets.script),
      (PageAssets.iconName, PageAssets.icon),
      (Self.fileName, Self.text(entries)),
    ]
    guard !entries.isEmpty else {
      // The index first: a shared file is never missing under an index that names it.
      for file in files.reversed() {
        let path = episodesDirectory + "/" + file.name
        if unlink(path) != 0 && errno != ENOENT {
          throw .cannotRemovePage(path: path, reason: String(cString: strerror(errno)))
        }
      }
      return
    }
    // The shared files before the index, so a cut between them leaves a page without its style
    // for a moment, never an index whose script is missing.
    for file in files {
      try Self.write(file.text, to: episodesDirectory + "/" + file.name, staging: staging)
    }
  }

  /// The folders with a page, by title (then folder name).
  package func readEntries() -> [Entry] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: episodesDirectory)) ?? [])
      .sorted()
    var entries: [Entry] = []
    for name in names where !name.hasPrefix(".") {
      let page = episodesDirectory + "/" + name + "/" + ArchivePage.fileName
      guard FolderFeed.regularFileSize(page) != nil, let head = Self.head(of: page),
        head.contains("<meta name=\"generator\" content=\"podcast\">")
      else { continue }
      let title =
        Self.value(between: "<title>", and: "</title>", in: head).map(Self.unescaped) ?? name
      let episodes = Self.meta(ArchivePage.episodesMeta, in: head).flatMap { Int($0) } ?? 0
      let newest = Self.meta(ArchivePage.newestMeta, in: head) ?? ""
      let cover = Self.meta(ArchivePage.coverMeta, in: head).flatMap {
        $0.isEmpty ? nil : $0.removingPercentEncoding
      }
      entries.append(
        Entry(folder: name, title: title, episodes: episodes, newest: newest, cover: cover))
    }
    return entries.sorted {
      let order = $0.title.localizedCaseInsensitiveCompare($1.title)
      return order != .orderedSame ? order == .orderedAscending : $0.folder < $1.folder
    }
  }

  /// A page's head: where its title and the index's facts are, not its episodes.
  private static func head(of path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 8192) else { return nil }
    let text = String(decoding: data, as: UTF8.self)
    guard let end = text.range(of: "</head>") else { return nil }
    return String(text[..<end.lowerBound])
  }

  private static func meta(_ name: String, in head: String) -> String? {
    value(between: "<meta name=\"\(name)\" content=\"", and: "\"", in: head).map(unescaped)
  }

  private static func value(between open: String, and close: String, in text: String) -> String? {
    guard let start = text.range(of: open),
      let end = text.range(of: close, range: start.upperBound..<text.endIndex)
    else { return nil }
    return String(text[start.upperBound..<end.lowerBound])
  }

  /// What `ShowNotesHTML.escaped` wrote, read back.
  private static func unescaped(_ text: String) -> String {
    guard text.contains("&") else { return text }
    return text.replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
      .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
  }

  /// `text` at `path` through a temporary, unless it says that already.
  package static func write(_ text: String, to path: String, staging: String?)
    throws(FolderViewError)
  {
    let data = Data(text.utf8)
    if FileBytes.read(path) == data { return }
    let folder = StandardPath.directory(of: path)
    var code = AtomicFile.write(
      data, to: path, prefix: Playlist.temporaryPrefix, in: staging ?? folder)
    if code == EXDEV {
      // The state folder is on another filesystem: the temporary goes beside the page.
      code = AtomicFile.write(data, to: path, prefix: Playlist.temporaryPrefix, in: folder)
    }
    if let code { throw .cannotWritePage(path: path, reason: String(cString: strerror(code))) }
  }
}
