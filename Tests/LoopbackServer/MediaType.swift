/// Content types for the files a podcast server typically serves, by file extension.
enum MediaType {
  static func guess(forPath path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let ext =
      name.split(separator: ".").count > 1 ? name.split(separator: ".").last?.lowercased() : nil
    switch ext {
    case "rss": return "application/rss+xml"
    case "xml": return "application/xml"
    case "opml": return "text/x-opml"
    case "json": return "application/json"
    case "html", "htm": return "text/html; charset=utf-8"
    case "txt": return "text/plain; charset=utf-8"
    case "css": return "text/css; charset=utf-8"
    case "js": return "text/javascript; charset=utf-8"
    case "vtt": return "text/vtt; charset=utf-8"
    case "srt": return "application/x-subrip"
    case "mp3": return "audio/mpeg"
    case "m4a", "aac": return "audio/mp4"
    case "mp4", "m4v": return "video/mp4"
    case "ogg", "oga": return "audio/ogg"
    case "opus": return "audio/opus"
    case "wav": return "audio/wav"
    case "jpg", "jpeg": return "image/jpeg"
    case "png": return "image/png"
    case "svg": return "image/svg+xml"
    default: return "application/octet-stream"
    }
  }

  /// Feeds get `{{base}}` replaced by the server's base URL, so fixtures work on any port.
  static func takesBasePlaceholder(_ path: String) -> Bool {
    let lower = path.lowercased()
    return lower.hasSuffix(".xml") || lower.hasSuffix(".rss")
  }
}
