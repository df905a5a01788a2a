import Basics

/// What tagging did to a file.
public enum TagResult: Sendable, Equatable {
  /// The tags were written into the file.
  case tagged(AudioFormat)
  /// Not a format the tagger writes (WAV, FLAC, raw AAC, video containers other than MP4, …):
  /// the file was not touched and stays exactly as served. Worth a note, never a failure.
  /// The value names the format for that note.
  case unsupported(String)
}
