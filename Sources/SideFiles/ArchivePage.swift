import Basics
import Foundation
import Privacy

/// The HTML of a podcast folder's page (`<podcast folder>/index.html`, `--write-page`): the
/// podcast's cover and description, then each episode on disk, newest first, with its date,
/// duration, size, whether it was played, its show notes (collapsed), a button for the page's
/// one player, its chapters (buttons that seek) and its transcript's cues, and links to the
/// file, its transcript, the folder's playlist and `feed.xml`.
///
/// Safe whatever the feed said: titles are escaped text, show notes and the description go
/// through `ShowNotesHTML`, links are relative paths of files in the folder, and the page's
/// Content-Security-Policy lets only the shared script and stylesheet beside it run or style
/// anything (`PageAssets`). No request leaves the page's own origin, and under `file://` it
/// makes none of its own beyond those two files and what the user plays.
///
/// Pure: the caller has read the files, their side files and the library. The same values
/// always make the same text, so an unchanged folder leaves the file untouched.
package struct ArchivePage: Sendable, Equatable {
  package struct Channel: Sendable, Equatable {
    package var title: String
    package var author: String?
    /// HTML or plain text, as the feed gave it.
    package var description: String?
    /// BCP 47, as the feed said; used only when it looks like a language tag.
    package var language: String?
    /// The folder's `cover.*`, relative to the folder.
    package var cover: String?
    /// `feed.xml`, when the folder has one.
    package var feed: String?
    /// The folder's playlist, relative to the folder, when it has one.
    package var playlist: String?

    package init(
      title: String, author: String? = nil, description: String? = nil, language: String? = nil,
      cover: String? = nil, feed: String? = nil, playlist: String? = nil
    ) {
      self.title = title
      self.author = author
      self.description = description
      self.language = language
      self.cover = cover
      self.feed = feed
      self.playlist = playlist
    }
  }

  package struct Item: Sendable, Equatable {
    package var title: String
    package var published: Date?
    /// Seconds.
    package var duration: Int?
    package var length: Int64
    package var played: Bool
    package var showNotes: String?
    /// The episode file, relative to the folder.
    package var file: String
    package var chapters: [PageChapters.Mark]
    /// Transcript files relative to the folder, the first WebVTT one also given to the player
    /// as a `<track>` when the page is served.
    package var transcripts: [String]
    /// The cues of the first transcript that has some.
    package var cues: [PageTranscript.Cue]

    package init(
      title: String, published: Date? = nil, duration: Int? = nil, length: Int64,
      played: Bool = false, showNotes: String? = nil, file: String,
      chapters: [PageChapters.Mark] = [], transcripts: [String] = [],
      cues: [PageTranscript.Cue] = []
    ) {
      self.title = title
      self.published = published
      self.duration = duration
      self.length = length
      self.played = played
      self.showNotes = showNotes
      self.file = file
      self.chapters = chapters
      self.transcripts = transcripts
      self.cues = cues
    }
  }

  package var channel: Channel
  package var items: [Item]

  package static let fileName = "index.html"

  /// Nothing from another origin, nothing inline: scripts, styles, images and audio from the
  /// page's own origin only. No `frame-ancestors`: a `<meta>` policy cannot carry it (Chromium
  /// ignores it and logs an error); a server that wants it sends it as a header.
  package static let contentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    + "media-src 'self'; base-uri 'none'; form-action 'none'"

  /// `<meta>` names the index reads back from each folder's page (`ArchiveIndex`).
  package static let episodesMeta = "podcast-episodes"
  package static let newestMeta = "podcast-newest"
  package static let coverMeta = "podcast-cover"

  package var text: String {
    var out = ""
    out.reserveCapacity(4096 + items.count * 700)
    let newest = items.compactMap(\.published).max()
    Self.head(
      title: channel.title, assets: "../", into: &out,
      meta: [
        (Self.episodesMeta, String(items.count)),
        (Self.newestMeta, newest.map(Self.isoDate) ?? ""),
        (Self.coverMeta, channel.cover.map(url) ?? ""),
      ])
    let language = Self.languageAttribute(channel.language)
    out += "<body>\n<header>\n"
    if let cover = channel.cover {
      out += "<img class=\"cover\" src=\"\(Self.escaped(url(cover)))\" alt=\"\" width=\"128\""
      out += " height=\"128\">\n"
    }
    out += "<div class=\"about\">\n"
    out += "<p class=\"muted\"><a href=\"../\(ArchiveIndex.fileName)\">All podcasts</a></p>\n"
    out += "<h1\(language)>\(Self.escaped(channel.title))</h1>\n"
    var facts = [Self.count(items.count, "episode")]
    if let author = channel.author, !author.trimmingWhitespace.isEmpty {
      facts.insert(Self.escaped(author), at: 0)
    }
    out += "<p class=\"meta\">\(facts.joined(separator: " · "))</p>\n"
    if let description = channel.description.map(Self.safeNotes), !description.isEmpty {
      out += "<div class=\"description\"\(language)>\(description)</div>\n"
    }
    var links: [String] = []
    if let feed = channel.feed {
      links.append("<a href=\"\(Self.escaped(url(feed)))\">Podcast feed of this folder</a>")
    }
    if let playlist = channel.playlist {
      links.append("<a href=\"\(Self.escaped(url(playlist)))\">Playlist (M3U)</a>")
    }
    if !links.isEmpty {
      out += "<ul class=\"links\">" + links.map { "<li>\($0)</li>" }.joined() + "</ul>\n"
    }
    out += "</div>\n</header>\n<main>\n<ol class=\"episodes\">\n"
    for (index, item) in items.enumerated() {
      append(item, number: index + 1, language: language, into: &out)
    }
    out += "</ol>\n</main>\n"
    // The one player: a page with 2,000 episodes lays out in a fraction of what 2,000
    // <audio> elements take.
    out += "<div class=\"player\" role=\"region\" aria-label=\"Player\">\n"
    out += "<p class=\"now\" id=\"now\"></p>\n"
    out += "<audio id=\"player\" controls preload=\"none\"></audio>\n"
    out += "<p class=\"cue\" id=\"cue\" aria-live=\"polite\"></p>\n</div>\n"
    out += "</body>\n</html>\n"
    return out
  }

  private func append(_ item: Item, number: Int, language: String, into out: inout String) {
    let file = url(item.file)
    let vtt = item.transcripts.first {
      StandardPath.pathExtension(of: $0).lowercased() == "vtt"
    }
    out += "<li class=\"ep\" id=\"e\(number)\" data-file=\"\(Self.escaped(file))\""
    if let vtt { out += " data-vtt=\"\(Self.escaped(url(vtt)))\"" }
    out += ">\n<h2 id=\"t\(number)\"\(language)>\(Self.escaped(item.title))</h2>\n"
    var facts: [String] = []
    if let published = item.published {
      facts.append(
        "<time datetime=\"\(Self.isoDateTime(published))\">\(Self.isoDate(published))</time>")
    }
    if let duration = item.duration, duration > 0 { facts.append(Self.clock(Double(duration))) }
    facts.append(Self.size(item.length))
    if item.played { facts.append("<span class=\"played\">Played</span>") }
    out += "<p class=\"meta\">\(facts.joined(separator: " · "))</p>\n"
    out += "<p class=\"acts\"><button type=\"button\" class=\"play\" aria-pressed=\"false\""
    out += " aria-describedby=\"t\(number)\">Play</button>"
    out += " <a href=\"\(Self.escaped(file))\">Audio file</a>"
    for transcript in item.transcripts {
      let kind = StandardPath.pathExtension(of: transcript).uppercased()
      out += " <a href=\"\(Self.escaped(url(transcript)))\">Transcript (\(Self.escaped(kind)))</a>"
    }
    out += "</p>\n"
    if let notes = item.showNotes.map(Self.safeNotes), !notes.isEmpty {
      out += "<details class=\"notes\"><summary>Show notes</summary><div\(language)>"
      out += notes
      out += "</div></details>\n"
    }
    if !item.chapters.isEmpty {
      out += "<details class=\"chapters\"><summary>Chapters</summary><ol class=\"chapters\">"
      for chapter in item.chapters {
        out += "<li><button type=\"button\" data-t=\"\(Self.seconds(chapter.start))\">"
        out += "<span class=\"time\">\(Self.clock(chapter.start))</span> "
        out += Self.escaped(chapter.title) + "</button></li>"
      }
      out += "</ol></details>\n"
    }
    if !item.cues.isEmpty {
      // Lines of start, end and text, tab-separated, read by the script: inert text in the
      // page, so the transcript follows playback under file:// too, where no <track> loads.
      out += "<details class=\"transcript\"><summary>Transcript</summary>"
      out += "<template class=\"cues-data\">"
      for cue in item.cues {
        let text = cue.text.split(whereSeparator: { $0 == "\t" || $0.isNewline })
          .joined(separator: " ")
        out += "\(Self.seconds(cue.start))\t\(Self.seconds(cue.end))\t\(Self.escaped(text))\n"
      }
      out += "</template><div class=\"cues\" aria-label=\"Transcript\"></div></details>\n"
    }
    out += "</li>\n"
  }

  /// A file of the folder as a link relative to the page.
  private func url(_ relative: String) -> String {
    FeedBaseURL.encodedPath(relative.split(separator: "/").map(String.init))
  }

  /// The shared head of both kinds of page: policy, viewport, title, stylesheet, script.
  package static func head(
    title: String, assets: String, into out: inout String, meta: [(String, String)] = []
  ) {
    out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    out += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(contentSecurityPolicy)\">\n"
    out += "<meta name=\"referrer\" content=\"no-referrer\">\n"
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    out += "<meta name=\"generator\" content=\"podcast\">\n"
    for (name, content) in meta {
      out += "<meta name=\"\(name)\" content=\"\(escaped(content))\">\n"
    }
    out += "<title>\(escaped(title))</title>\n"
    out += "<link rel=\"icon\" href=\"\(assets)\(PageAssets.iconName)\" type=\"image/svg+xml\">\n"
    out += "<link rel=\"stylesheet\" href=\"\(assets)\(PageAssets.stylesheetName)\">\n"
    out += "<script src=\"\(assets)\(PageAssets.scriptName)\" defer></script>\n"
    out += "</head>\n"
  }

  /// Feed text in the page: escaped, with a private feed's secrets masked.
  package static func escaped(_ text: String) -> String {
    ShowNotesHTML.escaped(SecretMask.masked(text))
  }

  /// Show notes or a description in the page: secrets masked, then the allow-list.
  package static func safeNotes(_ notes: String) -> String {
    ShowNotesHTML.safe(SecretMask.masked(notes)).trimmingWhitespace
  }

  /// ` lang="de"` for a plausible language tag, else nothing (the page's own `en` applies).
  static func languageAttribute(_ language: String?) -> String {
    guard let language, !language.isEmpty, language.count <= 35,
      language.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
      language.first?.isLetter == true
    else { return "" }
    return " lang=\"\(language)\""
  }

  package static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  /// `1:02:03`, `4:05`.
  package static func clock(_ seconds: Double) -> String {
    let total = max(0, Int(seconds))
    let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
    let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
  }

  /// A time for the script: seconds with at most three decimals, no exponent.
  package static func seconds(_ value: Double) -> String {
    let millis = Int64((max(0, value) * 1000).rounded())
    let whole = millis / 1000
    let fraction = millis % 1000
    guard fraction != 0 else { return String(whole) }
    var digits = String(fraction)
    digits = String(repeating: "0", count: 3 - digits.count) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(whole).\(digits)"
  }

  /// `57.3 MB`, decimal units as file managers show them.
  package static func size(_ bytes: Int64) -> String {
    let units = ["bytes", "kB", "MB", "GB", "TB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    if unit == 0 { return "\(bytes) bytes" }
    let rounded = (value * 10).rounded() / 10
    let text =
      rounded >= 100 || rounded == rounded.rounded()
      ? String(Int(rounded.rounded())) : String(format: "%.1f", rounded)
    return "\(text) \(units[unit])"
  }

  package static func isoDate(_ date: Date) -> String {
    String(isoDateTime(date).prefix(10))
  }

  package static func isoDateTime(_ date: Date) -> String {
    ISO8601.string(date)
  }
}
