/// The moments of an episode worth showing for a query: where each field's matches are, as
/// snippets, and the best few of them.
public enum MomentFinder {
  /// A snippet is about this many bytes of text around its first match.
  static let before = 60
  static let after = 120

  /// Every passage of `field` with a match, as a moment (the title and the notes: their best
  /// stretch, one moment). `passages`: the field's timeline, for chapters and transcripts.
  public static func candidates(
    field: FindField, highlight: Highlight, passages: PassageText? = nil
  ) -> [Moment] {
    guard !highlight.matches.isEmpty else { return [] }
    let bytes = Array(highlight.text.utf8)
    switch field {
    case .title:
      return [
        moment(field, bytes: bytes, window: 0..<bytes.count, matches: highlight.matches, time: nil)
      ]
    case .notes:
      // The stretch around the match with most of the query's words near it.
      let best = highlight.matches.prefix(100).map { match in
        let window = self.window(around: match, in: bytes, within: 0..<bytes.count)
        return moment(field, bytes: bytes, window: window, matches: highlight.matches, time: nil)
      }.max { $0.words < $1.words }
      return best.map { [$0] } ?? []
    case .chapters, .transcripts:
      guard let passages, !passages.starts.isEmpty else {
        return candidates(field: .notes, highlight: highlight).map {
          var moment = $0
          moment.field = field
          return moment
        }
      }
      var moments: [Moment] = []
      var seen = Set<Int>()
      for match in highlight.matches {
        guard let passage = passages.passage(at: match.lowerBound),
          seen.insert(passage.index).inserted
        else { continue }
        var window = self.window(around: match, in: bytes, within: passage.range)
        // A short cue: the ones after it complete the sentence, under the same time.
        var reached = passage.range.upperBound
        var next = passage.index + 1
        while window.upperBound == reached, window.count < before,
          let following = passages.passage(next), following.range.upperBound <= bytes.count,
          Self.follows(following.milliseconds, passage.milliseconds)
        {
          let cap = window.lowerBound + before + after
          if following.range.upperBound <= cap {
            window = window.lowerBound..<following.range.upperBound
            reached = following.range.upperBound
            next += 1
          } else {
            let end = snapEnd(
              cap, in: bytes, floor: following.range.lowerBound,
              ceiling: following.range.upperBound)
            window = window.lowerBound..<max(window.upperBound, end)
            break
          }
        }
        var found = moment(
          field, bytes: bytes, window: window, matches: highlight.matches,
          time: passage.milliseconds)
        found.passage = passage.index
        moments.append(found)
        if moments.count >= 200 { break }
      }
      return moments
    }
  }

  /// Whether a cue at `next` still belongs with one at `anchor`: within 20 seconds of it.
  private static func follows(_ next: Int?, _ anchor: Int?) -> Bool {
    guard let next, let anchor else { return true }
    return next >= anchor && next - anchor <= 20_000
  }

  /// The best `limit` of `candidates`: most of the query's words first, then by field (title,
  /// chapters, notes, transcripts), then earliest; a passage next to one already taken is
  /// passed over. Returned by field, then in time order.
  public static func pick(_ candidates: [Moment], limit: Int = 3) -> [Moment] {
    let ranked = candidates.enumerated().sorted { a, b in
      if a.element.words != b.element.words { return a.element.words > b.element.words }
      if a.element.field != b.element.field { return a.element.field < b.element.field }
      return a.offset < b.offset
    }.map(\.element)
    var chosen: [Moment] = []
    for candidate in ranked where chosen.count < limit {
      let neighbour = chosen.contains { taken in
        guard taken.field == candidate.field, let a = taken.passage, let b = candidate.passage
        else { return false }
        return abs(a - b) <= 1
      }
      if !neighbour { chosen.append(candidate) }
    }
    return chosen.sorted {
      ($0.field, $0.milliseconds ?? 0) < ($1.field, $1.milliseconds ?? 0)
    }
  }

  /// About `before` bytes before `match` and `after` after it, inside `bounds`, cut at spaces.
  static func window(around match: Range<Int>, in bytes: [UInt8], within bounds: Range<Int>)
    -> Range<Int>
  {
    let lower = max(bounds.lowerBound, match.lowerBound - before)
    let upper = min(bounds.upperBound, max(match.upperBound, match.lowerBound + after))
    var start = lower
    if start > bounds.lowerBound {
      // After the first space, so no word is cut (unless there is none before the match).
      var index = start
      while index < match.lowerBound && bytes[index] != 0x20 && bytes[index] != 0x0A {
        index += 1
      }
      start = index < match.lowerBound ? index + 1 : characterStart(start, in: bytes)
    }
    return start..<snapEnd(upper, in: bytes, floor: match.upperBound, ceiling: bounds.upperBound)
  }

  /// `end` moved back to the last space at or after `floor` (or to a character's start), so
  /// no word or character is cut; `ceiling` is where the text it may reach ends.
  static func snapEnd(_ end: Int, in bytes: [UInt8], floor: Int, ceiling: Int? = nil) -> Int {
    let limit = min(ceiling ?? bytes.count, bytes.count)
    guard end < limit else { return min(end, limit) }
    var index = end
    while index > floor && bytes[index] != 0x20 && bytes[index] != 0x0A { index -= 1 }
    return index > floor ? index : characterStart(max(end, floor), in: bytes)
  }

  /// The start of the character holding byte `index` (a UTF-8 continuation byte is 10xxxxxx).
  static func characterStart(_ index: Int, in bytes: [UInt8]) -> Int {
    var index = min(index, bytes.count)
    while index > 0 && index < bytes.count && bytes[index] & 0xC0 == 0x80 { index -= 1 }
    return index
  }

  private static func moment(
    _ field: FindField, bytes: [UInt8], window: Range<Int>, matches: [Range<Int>], time: Int?
  ) -> Moment {
    let inside = matches.filter {
      $0.lowerBound >= window.lowerBound && $0.upperBound <= window.upperBound
    }
    let leading = window.lowerBound > 0 && bytes[window.lowerBound - 1] != 0x0A
    let trailing = window.upperBound < bytes.count && bytes[window.upperBound] != 0x0A
    var text: [UInt8] = leading ? Array("…".utf8) : []
    let shift = text.count - window.lowerBound
    text += bytes[window].map { $0 == 0x0A ? 0x20 : $0 }
    if trailing { text += Array("…".utf8) }
    let words = Set(
      inside.map { FindQuery.fold(String(decoding: bytes[$0], as: UTF8.self)) }
    ).count
    return Moment(
      field: field, milliseconds: time,
      snippet: Snippet(
        text: String(decoding: text, as: UTF8.self),
        matches: inside.map { ($0.lowerBound + shift)..<($0.upperBound + shift) }),
      words: words)
  }
}
