import Basics
import SideFiles

/// What a finished download wrote besides the audio, for the output: whether the tags went
/// in (or why not) and the side files put beside it.
public struct SideFileReport: Sendable, Equatable {
  /// The tags are in the file.
  public var tagged: Bool
  /// A front cover is in the file's tag.
  public var cover: Bool
  /// Why the file was left as served (a format TagLib does not write, a file it could not
  /// open): one line for the user, never a failure. Nil when tagged or not asked to tag.
  public var note: String?
  /// Files written beside the audio by this download (the podcast folder's cover, …).
  public var files: [String]
  /// Each side file that could not be kept; the episode itself is fine, and the next run of
  /// the same episode tries again.
  public var sideFileNotes: [SideFileNote]

  public init(
    tagged: Bool = false, cover: Bool = false, note: String? = nil, files: [String] = [],
    sideFileNotes: [SideFileNote] = []
  ) {
    self.tagged = tagged
    self.cover = cover
    self.note = note
    self.files = files
    self.sideFileNotes = sideFileNotes
  }

  /// Nothing asked for (`--no-tags`), nothing written.
  public static let none = SideFileReport()
}
