import Basics
import Foundation

/// What the feed and the file name claim a download is. The tagger trusts the file's bytes
/// (publishers serve M4A as audio/mpeg often enough); the hint only names a format it leaves
/// alone, so the note to the user says "WAV" or "audio/x-ms-wma" rather than "unknown".
public struct FormatHint: Sendable, Equatable {
  /// The enclosure's MIME type as the feed or the server gave it.
  public var mimeType: String?
  /// The extension the finished file will have, without the dot.
  public var fileExtension: String?

  public init(mimeType: String? = nil, fileExtension: String? = nil) {
    self.mimeType = mimeType
    self.fileExtension = fileExtension
  }

  /// A short human name for the claimed format, or nil when the hint says nothing.
  package var name: String? {
    // `trimmingWhitespace`, not Foundation's trimming: asked of every file the tagger leaves
    // alone, which was 0.8% of a first sync's CPU where no episode was MP3 or M4A.
    if let ext = fileExtension?.trimmingWhitespace, !ext.isEmpty {
      return ext.uppercased()
    }
    let type = mimeType?.split(separator: ";").first.map { String($0).trimmingWhitespace }
    if let type, !type.isEmpty { return type.lowercased() }
    return nil
  }
}
