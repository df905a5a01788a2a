/// A stretch of an episode's words as a transcript or a chapter list gives it (a cue, a
/// segment, a paragraph, a chapter's title), with the moment it starts when the file says.
/// The index reads `start` and `text`; an archive page also shows who speaks and follows
/// playback to `end`.
public struct Passage: Sendable, Equatable {
  /// Seconds from the start of the audio; nil for a transcript without times (HTML, text).
  public var start: Double?
  /// Seconds from the start of the audio, where the file says (a cue's own end, a segment's
  /// or chapter's `endTime`); never before `start`.
  public var end: Double?
  /// Who says it, where the file names one voice for the whole passage (WebVTT's `<v Name>`,
  /// a JSON segment's `speaker`). Not part of `text`: the index holds only the words.
  public var speaker: String?
  public var text: String

  public init(start: Double?, end: Double? = nil, speaker: String? = nil, text: String) {
    self.start = start
    self.end = end
    self.speaker = speaker
    self.text = text
  }
}
