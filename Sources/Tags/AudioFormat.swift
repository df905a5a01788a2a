import Basics

/// The audio containers the tagger writes into, as the file's own bytes say (not its name).
public enum AudioFormat: Sendable, Equatable, CustomStringConvertible {
  /// MPEG audio (MP3): an ID3v2.4 tag.
  case mp3
  /// MPEG-4 (M4A, MP4, M4V): iTunes-style `ilst` items.
  case mp4
  /// Ogg Opus: Xiph comments.
  case opus
  /// Ogg Vorbis: Xiph comments.
  case vorbis

  public var description: String {
    switch self {
    case .mp3: return "MP3"
    case .mp4: return "MP4"
    case .opus: return "Ogg Opus"
    case .vorbis: return "Ogg Vorbis"
    }
  }
}
