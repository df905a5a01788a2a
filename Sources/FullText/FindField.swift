/// The parts of an episode the full-text index holds, in the order they rank at equal
/// relevance: a word in the title says more about the episode than one in an hour of speech.
public enum FindField: String, Sendable, CaseIterable, Comparable {
  case title
  case chapters
  case notes
  case transcripts

  /// The column's place in the index.
  public var column: Int {
    switch self {
    case .title: 0
    case .chapters: 1
    case .notes: 2
    case .transcripts: 3
    }
  }

  public static func < (a: FindField, b: FindField) -> Bool { a.column < b.column }
}
