import Basics
import Feeds
import Foundation

/// Turns an episode into a path under the Episodes directory: readable, safe on every common
/// filesystem, capped in length, and never outside the directory whatever the feed says.
public struct FileNamer: Sendable {
  public static let defaultTemplate = "{date} {title}.{ext}"
  public static let placeholders = [
    "podcast", "date", "title", "guid", "index", "season", "number", "filename", "ext",
  ]
  /// Bytes per path component; ext4 and most others allow 255.
  package static let maxComponentBytes = 200

  public let template: String
  /// The template's path components, each as its text and placeholders: parsed once, so a
  /// name works out only the values its template names.
  private let components: [[Part]]

  private enum Part: Sendable {
    case text(String)
    case placeholder(String)
  }

  public init(template: String = FileNamer.defaultTemplate) throws {
    var rest = template[...]
    while let open = rest.firstIndex(of: "{") {
      guard let close = rest[open...].firstIndex(of: "}") else {
        throw FileNameError.badTemplate(template, reason: "an opening { has no closing }")
      }
      let name = String(rest[rest.index(after: open)..<close])
      guard Self.placeholders.contains(name) else {
        throw FileNameError.badTemplate(template, reason: "unknown placeholder {\(name)}")
      }
      rest = rest[rest.index(after: close)...]
    }
    guard !template.hasPrefix("/") else {
      throw FileNameError.badTemplate(
        template, reason: "it must be relative to the Episodes directory")
    }
    // A template names a file inside the podcast's folder: with no file name, an episode
    // would take the folder's own name, beside the other podcasts' folders.
    let names = template.split(separator: "/", omittingEmptySubsequences: false)
    guard let file = names.last, !String(file).trimmingWhitespace.isEmpty else {
      throw FileNameError.badTemplate(
        template,
        reason:
          "it must end in a file name inside the podcast's folder, such as \(Self.defaultTemplate)")
    }
    guard !names.contains(where: { $0 == "." || $0 == ".." }) else {
      throw FileNameError.badTemplate(
        template, reason: "it must stay inside the podcast's folder (no . or .. in it)")
    }
    self.template = template
    components = template.split(separator: "/", omittingEmptySubsequences: true).map {
      Self.parts(of: $0)
    }
  }

  /// `component`'s text and placeholders, in order (`init` checked that every { has its }).
  private static func parts(of component: Substring) -> [Part] {
    var parts: [Part] = []
    var rest = component
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
      parts.append(.placeholder(String(rest[rest.index(after: open)..<close])))
      rest = rest[rest.index(after: close)...]
    }
    if !rest.isEmpty { parts.append(.text(String(rest))) }
    return parts
  }

  /// The podcast's folder name inside the Episodes directory.
  public static func folderName(for podcast: Podcast) -> String {
    if let title = podcast.title {
      let name = sanitize(title, fallback: "")
      if !name.isEmpty { return name }
    }
    // Parsed only for a podcast without a usable title.
    let host = podcast.feedURL.flatMap { URL(string: $0)?.host } ?? "Podcast"
    return sanitize(host, fallback: "Podcast")
  }

  /// The relative path (folder/…/file) for `episode`, before de-duplication.
  public func relativePath(for episode: Episode, podcast: Podcast, index: Int) -> String {
    var values = Values(episode: episode, podcast: podcast, index: index)
    let components = components.map { Self.expand($0, values: &values) }
    // A folder whose placeholders have no value ({season} of an unnumbered show) is left out
    // rather than becoming a folder named "_".
    let safe = components.enumerated().compactMap { offset, component -> String? in
      let isFile = offset == components.count - 1
      if isFile { return Self.sanitizeFileName(component, ext: values.value(of: "ext") ?? "") }
      let folder = Self.sanitize(component, fallback: "")
      return folder.isEmpty ? nil : folder
    }
    return ([Self.folderName(for: podcast)] + safe).joined(separator: "/")
  }

  /// Each placeholder's value for one episode, worked out when first asked for: the default
  /// template names three of the nine.
  package struct Values {
    let episode: Episode
    let podcast: Podcast
    let index: Int
    private var urlPath: String?

    package init(episode: Episode, podcast: Podcast, index: Int) {
      self.episode = episode
      self.podcast = podcast
      self.index = index
    }

    /// The enclosure URL's path, parsed once.
    private mutating func path() -> String {
      if let urlPath { return urlPath }
      let parsed = URL(string: episode.enclosure.url)?.path ?? ""
      urlPath = parsed
      return parsed
    }

    /// nil for a name that is no placeholder.
    package mutating func value(of name: String) -> String? {
      switch name {
      case "podcast": return podcast.title ?? ""
      case "date": return episode.published.map(ISO8601.day) ?? ""
      case "title":
        // The URL's file name without its extension: the template adds {ext} itself, and an
        // untitled episode must not become `a.mp3.mp3`.
        return [episode.title, episode.guid].compactMap { $0 }
          .first { !$0.trimmingWhitespace.isEmpty }
          ?? ((path() as NSString).lastPathComponent as NSString).deletingPathExtension
      case "guid": return episode.guid ?? ""
      case "index": return String(index)
      case "season": return episode.season.map(String.init) ?? ""
      case "number": return episode.number.map(String.init) ?? ""
      case "filename":
        return ((path() as NSString).lastPathComponent as NSString).deletingPathExtension
      case "ext":
        return MediaType.fileExtension(urlPath: path(), mimeType: episode.enclosure.type)
      default: return nil
      }
    }
  }

  /// The component with each placeholder replaced by its value, in one pass: a value is never
  /// searched for placeholders itself (a title "{date}" stays that text whatever order the
  /// values come in), and only the values the component names are cleaned.
  private static func expand(_ component: [Part], values: inout Values) -> String {
    var result = ""
    for part in component {
      switch part {
      case .text(let text): result += text
      case .placeholder(let name):
        if let value = values.value(of: name) {
          // Values are made safe before they go in, so a title can never add a path separator.
          result += name == "ext" ? value : clean(value)
        } else {
          result += "{" + name + "}"
        }
      }
    }
    return result
  }

  /// Replaces what filesystems (or shells, or Windows shares) choke on.
  package static func clean(_ text: String) -> String {
    if let ascii = cleanASCII(text) { return ascii }
    // One spelling per name: the same title in NFC and NFD must not give two files that look
    // identical. ASCII has one spelling only, and skips Foundation's normalisation.
    let composed =
      text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
    var out = String.UnicodeScalarView()
    var scalars = composed.unicodeScalars.makeIterator()
    var next = scalars.next()
    while let scalar = next {
      next = scalars.next()
      switch scalar {
      // "Part 1: The Start" reads better as "Part 1 - The Start" than "Part 1- The Start".
      case ":" where next == " ": out.append(contentsOf: " -".unicodeScalars)
      case "/", "\\", ":", "|": out.append("-")
      case "*", "?", "\"", "<", ">": out.append("_")
      // C0, DEL and C1 (U+0085 next line, U+009B is a terminal's CSI): none belongs in a name.
      case _ where scalar.properties.generalCategory == .control: out.append(" ")
      case _ where scalar.properties.generalCategory == .format: continue
      default: out.append(scalar)
      }
    }
    return String(out).split(separator: " ", omittingEmptySubsequences: true).joined(
      separator: " ")
  }

  /// `clean` of a text that is all ASCII, byte by byte (nil for any other text): the same
  /// replacements, without asking each character's Unicode category. Titles mostly are.
  private static func cleanASCII(_ text: String) -> String? {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    var bytes = text.utf8.makeIterator()
    var next = bytes.next()
    var pendingSpace = false
    // Runs of spaces become one, and none leads or trails (as `split` and `joined` do).
    func emit(_ piece: UInt8) {
      if piece == 0x20 {
        pendingSpace = !out.isEmpty
      } else {
        if pendingSpace { out.append(0x20) }
        pendingSpace = false
        out.append(piece)
      }
    }
    while let byte = next {
      guard byte < 0x80 else { return nil }
      next = bytes.next()
      switch byte {
      case UInt8(ascii: ":") where next == UInt8(ascii: " "):
        emit(0x20)
        emit(UInt8(ascii: "-"))
      case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: ":"), UInt8(ascii: "|"):
        emit(UInt8(ascii: "-"))
      case UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "\""), UInt8(ascii: "<"),
        UInt8(ascii: ">"):
        emit(UInt8(ascii: "_"))
      case 0..<0x20, 0x7F: emit(0x20)
      default: emit(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  package static func sanitize(_ text: String, fallback: String) -> String {
    var name = clean(text)
    name = String(name.drop(while: { $0 == "." || $0 == " " || $0 == "-" }))
    while name.hasSuffix(".") || name.hasSuffix(" ") { name.removeLast() }
    name = truncate(name, toBytes: maxComponentBytes)
    return name.isEmpty ? fallback : name
  }

  private static func sanitizeFileName(_ text: String, ext: String) -> String {
    let suffix = ext.isEmpty ? "" : "." + ext
    var stem = text.hasSuffix(suffix) ? String(text.dropLast(suffix.count)) : text
    stem = sanitize(stem, fallback: "episode")
    stem = truncate(stem, toBytes: maxComponentBytes - suffix.utf8.count)
    while stem.hasSuffix(" ") || stem.hasSuffix(".") { stem.removeLast() }
    return (stem.isEmpty ? "episode" : stem) + suffix
  }

  package static func truncate(_ text: String, toBytes limit: Int) -> String {
    guard text.utf8.count > limit else { return text }
    var result = ""
    var used = 0
    for character in text {
      let size = character.utf8.count
      if used + size > limit { break }
      result.append(character)
      used += size
    }
    return result
  }
}

/// Why a file name template cannot be used.
public enum FileNameError: SentenceError, Equatable {
  case badTemplate(String, reason: String)

  public var description: String {
    switch self {
    case .badTemplate(let template, let reason): return "name template \"\(template)\": \(reason)"
    }
  }
}
