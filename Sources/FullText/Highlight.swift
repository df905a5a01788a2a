/// A field's text as the index's `highlight()` gives it back: the text, and where in it the
/// query's words matched. The marks are two control characters, which no indexed text holds
/// (`IndexedText.clean`), so no text of a feed can fake one.
public struct Highlight: Sendable, Equatable {
  /// What `highlight()` is asked to put before and after each match.
  public static let open = "\u{1}"
  public static let close = "\u{2}"

  /// The text without the marks.
  public let text: String
  /// The matches, as UTF-8 byte ranges of `text`, in order.
  public let matches: [Range<Int>]

  public init(marked: String) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(marked.utf8.count)
    var matches: [Range<Int>] = []
    var start: Int?
    for byte in marked.utf8 {
      switch byte {
      case 0x01: start = bytes.count
      case 0x02:
        if let begin = start, begin < bytes.count { matches.append(begin..<bytes.count) }
        start = nil
      default: bytes.append(byte)
      }
    }
    text = String(decoding: bytes, as: UTF8.self)
    self.matches = matches
  }

  public init(text: String, matches: [Range<Int>]) {
    self.text = text
    self.matches = matches
  }
}

/// A short stretch of a field with the query's words in it, for one line of output.
public struct Snippet: Sendable, Equatable {
  /// One line: `…` where the field goes on before or after.
  public let text: String
  /// Where the query's words are in `text`, as UTF-8 byte ranges, in order.
  public let matches: [Range<Int>]

  public init(text: String, matches: [Range<Int>]) {
    self.text = text
    self.matches = matches
  }

  /// `text` in pieces, each matched or not, in order: for a front end that marks matches.
  public var pieces: [(text: String, matched: Bool)] {
    let bytes = Array(text.utf8)
    var pieces: [(String, Bool)] = []
    var at = 0
    for match in matches where match.lowerBound >= at && match.upperBound <= bytes.count {
      if match.lowerBound > at {
        pieces.append((String(decoding: bytes[at..<match.lowerBound], as: UTF8.self), false))
      }
      pieces.append((String(decoding: bytes[match], as: UTF8.self), true))
      at = match.upperBound
    }
    if at < bytes.count { pieces.append((String(decoding: bytes[at...], as: UTF8.self), false)) }
    return pieces
  }
}

/// Where in an episode a query's words are: a field, the moment of the audio when the field
/// has times (chapters, a timed transcript), and a snippet.
public struct Moment: Sendable, Equatable {
  public var field: FindField
  /// Milliseconds from the start of the audio; nil for the title, the notes and an untimed
  /// transcript.
  public var milliseconds: Int?
  public var snippet: Snippet
  /// How many of the query's distinct words the snippet holds.
  public var words: Int
  /// The passage it starts in, for telling neighbours apart.
  var passage: Int?

  /// The moment in whole seconds, as shown (`41:12`).
  public var seconds: Int? { milliseconds.map { $0 / 1000 } }
}
