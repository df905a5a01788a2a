/// A stretch of an episode's words as a transcript or a chapter list gives it (a cue, a
/// segment, a paragraph, a chapter's title), with the moment it starts when the file says.
public struct Passage: Sendable, Equatable {
  /// Seconds from the start of the audio; nil for a transcript without times (HTML, text).
  public var start: Double?
  public var text: String

  public init(start: Double?, text: String) {
    self.start = start
    self.text = text
  }
}
