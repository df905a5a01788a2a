import Basics
import Foundation

/// File extensions and media types of what podcasts publish.
package enum MediaType {
  private static let extensionsByType: [String: String] = [
    "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/x-mp3": "mp3", "audio/mpeg3": "mp3",
    "audio/mp4": "m4a", "audio/x-m4a": "m4a", "audio/m4a": "m4a", "audio/aac": "aac",
    "audio/x-aac": "aac", "audio/ogg": "ogg", "audio/opus": "opus", "audio/vorbis": "ogg",
    "audio/wav": "wav", "audio/x-wav": "wav", "audio/wave": "wav", "audio/flac": "flac",
    "audio/x-flac": "flac", "video/mp4": "mp4", "video/x-m4v": "m4v", "video/quicktime": "mov",
    "video/webm": "webm", "audio/webm": "weba", "application/pdf": "pdf",
  ]

  /// Extensions a media file may keep from its URL. Anything else (`.sh`, `.html`, `.php`,
  /// `.exe`) says nothing about the file, or worse, invites running it.
  private static let mediaExtensions: Set<String> = Set(extensionsByType.values).union([
    "m4b", "oga", "mkv", "avi", "mpg", "mpeg", "3gp", "aiff", "aif", "wma", "wmv", "epub",
    "mp2", "spx", "caf", "amr",
  ])

  /// The URL's own extension when it is a media one, else the MIME type's, else "mp3" for
  /// audio/mpeg-ish feeds that say nothing useful.
  package static func fileExtension(urlPath: String, mimeType: String?) -> String {
    let last = urlPath.split(separator: "/").last.map(String.init) ?? ""
    if let dot = last.lastIndex(of: "."), dot != last.startIndex {
      let ext = last[last.index(after: dot)...].lowercased()
      if mediaExtensions.contains(ext) { return ext }
    }
    let type = mimeType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
      .lowercased()
    if let type, let ext = extensionsByType[type] { return ext }
    if let type, type.hasPrefix("video/") { return "mp4" }
    return "mp3"
  }

  /// Whether the feed itself says this enclosure is a web page (then HTML is not an error).
  private static let html = Array("html".utf8)

  package static func isHTML(_ mimeType: String?) -> Bool {
    // On the bytes: Foundation's substring search, asked of every download, cost more.
    // No proper prefix of "html" is also its suffix, so a mismatch restarts the match.
    guard let bytes = mimeType?.utf8 else { return false }
    var matched = 0
    for byte in bytes {
      let lower = byte.asciiLowercased
      if lower == html[matched] {
        matched += 1
        if matched == html.count { return true }
      } else {
        matched = lower == html[0] ? 1 : 0
      }
    }
    return false
  }

  /// The usual media type of a file with extension `ext`, for a feed's enclosure; nil when
  /// the extension says nothing.
  package static func type(ofExtension ext: String) -> String? {
    typesByExtension[ext.lowercased()]
  }

  private static let typesByExtension: [String: String] = [
    "mp3": "audio/mpeg", "m4a": "audio/mp4", "m4b": "audio/mp4", "aac": "audio/aac",
    "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/opus", "spx": "audio/ogg",
    "wav": "audio/wav", "flac": "audio/flac", "mp4": "video/mp4", "m4v": "video/x-m4v",
    "mov": "video/quicktime", "webm": "video/webm", "weba": "audio/webm", "mkv": "video/x-matroska",
    "avi": "video/x-msvideo", "mpg": "video/mpeg", "mpeg": "video/mpeg", "3gp": "video/3gpp",
    "aiff": "audio/aiff", "aif": "audio/aiff", "wma": "audio/x-ms-wma", "wmv": "video/x-ms-wmv",
    "mp2": "audio/mpeg", "amr": "audio/amr", "caf": "audio/x-caf", "pdf": "application/pdf",
    "epub": "application/epub+zip",
  ]
}
