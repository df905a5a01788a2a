import Basics
import Foundation
import Model
import Privacy

/// The RSS 2.0 text of a podcast folder's own feed (`feed.xml`): the episodes the library
/// downloaded into the folder, described as their feed did (GUID, title, date, show notes,
/// duration, numbers, flags), each enclosure pointing at the local file. With the iTunes and
/// Podcasting 2.0 namespaces, so podcast apps show seasons, chapters and transcripts.
///
/// Pure: the caller has read the files' sizes and side files. The same values always make the
/// same text (no build date), so an unchanged folder leaves the file untouched.
package struct ArchiveFeed: Sendable, Equatable {
  package struct Channel: Sendable, Equatable {
    package var title: String
    package var author: String?
    package var description: String?
    package var language: String?
    /// The folder's `cover.*`, relative to the folder.
    package var cover: String?
  }

  package struct Item: Sendable, Equatable {
    package var title: String
    package var guid: String?
    package var published: Date?
    package var showNotes: String?
    package var duration: Int?
    package var season: Int?
    package var number: Int?
    package var episodeType: String?
    package var explicit: Bool?
    /// The episode file, relative to the folder (`Season 2/Title.mp3`).
    package var file: String
    package var length: Int64
    package var mimeType: String
    /// `(file relative to the folder, media type, language)`.
    package var transcripts: [(file: String, type: String, language: String?)]
    package var chapters: String?

    package static func == (lhs: Item, rhs: Item) -> Bool {
      lhs.title == rhs.title && lhs.guid == rhs.guid && lhs.published == rhs.published
        && lhs.showNotes == rhs.showNotes && lhs.duration == rhs.duration
        && lhs.season == rhs.season && lhs.number == rhs.number
        && lhs.episodeType == rhs.episodeType && lhs.explicit == rhs.explicit
        && lhs.file == rhs.file && lhs.length == rhs.length && lhs.mimeType == rhs.mimeType
        && lhs.transcripts.map(\.file) == rhs.transcripts.map(\.file)
        && lhs.chapters == rhs.chapters
    }
  }

  package var channel: Channel
  package var items: [Item]
  /// The folder's name: the last path segment of its URL.
  package var folderName: String
  /// Nil: every link relative to the feed itself, for a web server serving the folder.
  package var baseURL: FeedBaseURL?

  package static let fileName = "feed.xml"

  /// A file of the folder (`segments` relative to it), as the feed links it.
  package func url(_ relative: String) -> String {
    let segments = relative.split(separator: "/").map(String.init)
    guard let baseURL else { return FeedBaseURL.encodedPath(segments) }
    return baseURL.appending([folderName] + segments)
  }

  /// The folder's own URL (the channel's link): its base URL's, else `./`.
  package var folderURL: String {
    guard let baseURL else { return "./" }
    return baseURL.appending([folderName]) + "/"
  }

  package var text: String {
    var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    out += #"<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd""#
    out += #" xmlns:podcast="https://podcastindex.org/namespace/1.0""#
    out += #" xmlns:atom="http://www.w3.org/2005/Atom">"# + "\n"
    out += "<channel>\n"
    element("title", channel.title, into: &out, indent: 1)
    element("link", folderURL, into: &out, indent: 1)
    if baseURL != nil {
      out += "  <atom:link href=\"\(Self.escaped(url(Self.fileName)))\" rel=\"self\""
      out += " type=\"application/rss+xml\"/>\n"
    }
    element("description", channel.description ?? channel.title, into: &out, indent: 1)
    if let language = channel.language { element("language", language, into: &out, indent: 1) }
    element("generator", "podcast", into: &out, indent: 1)
    if let author = channel.author { element("itunes:author", author, into: &out, indent: 1) }
    if let cover = channel.cover {
      out += "  <itunes:image href=\"\(Self.escaped(url(cover)))\"/>\n"
      out += "  <image>\n"
      element("url", url(cover), into: &out, indent: 2)
      element("title", channel.title, into: &out, indent: 2)
      element("link", folderURL, into: &out, indent: 2)
      out += "  </image>\n"
    }
    // A private archive: kept out of directories, and not to be imported elsewhere.
    element("itunes:block", "Yes", into: &out, indent: 1)
    element("podcast:locked", "yes", into: &out, indent: 1)
    for item in items { append(item, into: &out) }
    out += "</channel>\n</rss>\n"
    return out
  }

  private func append(_ item: Item, into out: inout String) {
    out += "  <item>\n"
    element("title", item.title, into: &out, indent: 2)
    if let guid = item.guid {
      out += "    <guid isPermaLink=\"false\">\(Self.escaped(guid))</guid>\n"
    }
    if let published = item.published {
      element("pubDate", XMLText.rfc822(published), into: &out, indent: 2)
    }
    if let notes = item.showNotes, !notes.isEmpty {
      element("description", notes, into: &out, indent: 2)
    }
    out += "    <enclosure url=\"\(Self.escaped(url(item.file)))\" length=\"\(item.length)\""
    out += " type=\"\(Self.escaped(item.mimeType))\"/>\n"
    if let duration = item.duration {
      element("itunes:duration", String(duration), into: &out, indent: 2)
    }
    if let season = item.season { element("itunes:season", String(season), into: &out, indent: 2) }
    if let number = item.number {
      element("itunes:episode", String(number), into: &out, indent: 2)
    }
    if let type = item.episodeType { element("itunes:episodeType", type, into: &out, indent: 2) }
    if let explicit = item.explicit {
      element("itunes:explicit", explicit ? "true" : "false", into: &out, indent: 2)
    }
    for transcript in item.transcripts {
      out += "    <podcast:transcript url=\"\(Self.escaped(url(transcript.file)))\""
      out += " type=\"\(Self.escaped(transcript.type))\""
      if let language = transcript.language {
        out += " language=\"\(Self.escaped(language))\""
      }
      out += "/>\n"
    }
    if let chapters = item.chapters {
      out += "    <podcast:chapters url=\"\(Self.escaped(url(chapters)))\""
      out += " type=\"application/json+chapters\"/>\n"
    }
    out += "  </item>\n"
  }

  private func element(_ name: String, _ value: String, into out: inout String, indent: Int) {
    out += String(repeating: "  ", count: indent)
    out += "<\(name)>\(Self.escaped(value))</\(name)>\n"
  }

  /// Text or an attribute value (`XMLText.escaped`), with the secrets a private feed put in
  /// it (a signed link in the show notes) masked.
  package static func escaped(_ text: String) -> String {
    XMLText.escaped(SecretMask.masked(text))
  }
}
