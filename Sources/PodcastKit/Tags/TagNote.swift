/// What tagging did to a finished download, for the output: tagged, or why not.
public struct TagNote: Sendable, Equatable {
  /// The tags are in the file.
  public var tagged: Bool
  /// The front cover is in the file.
  public var cover: Bool
  /// Why the file was left as served (a format TagLib does not write, a file it could not
  /// open): one line for the user, never a failure. Nil when tagged or not asked to tag.
  public var note: String?

  public init(tagged: Bool = false, cover: Bool = false, note: String? = nil) {
    self.tagged = tagged
    self.cover = cover
    self.note = note
  }

  /// Tagging was not asked for (`--no-tags`).
  public static let notRequested = TagNote()
}
