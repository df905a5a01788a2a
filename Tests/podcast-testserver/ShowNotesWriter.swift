/// Plausible episode titles and HTML show notes from a seeded generator: varied enough that
/// parsers do real work, identical on every run.
struct ShowNotesWriter {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  /// SplitMix64: a uniform number in 0..<bound.
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((mixed ^ (mixed >> 31)) % UInt64(bound))
  }

  private mutating func pick(_ words: [String]) -> String {
    words[next(words.count)]
  }

  mutating func title() -> String {
    "The \(Self.capitalized(pick(Self.adjectives))) \(Self.capitalized(pick(Self.nouns))) of \(pick(Self.places))"
  }

  mutating func sentence() -> String {
    let opener = pick(Self.openers)
    let rest = (0..<(6 + next(8))).map { _ in pick(Self.nouns + Self.adjectives + Self.fillers) }
    return
      "\(opener) \(rest.joined(separator: " ")) &amp; \(pick(Self.nouns)) \u{2014} \(pick(Self.endings))."
  }

  /// About 2.8 KB of HTML, the way hosting platforms render show notes, and its first
  /// paragraphs as the summary apps show in lists.
  mutating func showNotes(title: String, number: Int, base: String) -> (
    summary: String, html: String
  ) {
    var html = "<p>\(sentence()) \(sentence())</p>\n"
    html += "<p>This week on <em>The Long Archive</em>: \(title.lowercased()). \(sentence())</p>\n"
    html += "<h3>About our guest</h3>\n<p>\(sentence()) \(sentence()) \(sentence())</p>\n"
    let summary = html
    html += "<h3>In this episode</h3>\n<ul>\n"
    for minute in stride(from: 2, to: 40, by: 6 + next(4)) {
      html += "<li>(\(minute):\(next(5))\(next(10))) \(sentence())</li>\n"
    }
    html += "</ul>\n<h3>Links &amp; references</h3>\n<ul>\n"
    for link in 0..<(3 + next(3)) {
      html +=
        "<li><a href=\"https://example.org/\(pick(Self.nouns))/\(number)-\(link)?utm_source=podcast&amp;utm_medium=rss\">"
      html += "\(Self.capitalized(pick(Self.adjectives))) \(pick(Self.nouns))</a></li>\n"
    }
    html +=
      "</ul>\n<p><strong>Sponsor:</strong> \(sentence()) Use code <code>ARCHIVE\(number % 90 + 10)</code> "
    html +=
      "at checkout.</p>\n<p>Transcript: <a href=\"\(base)/episodes/\(number)/transcript\">read it here</a>. "
    html += "Music by &quot;The Quiet Hours&quot;. \(sentence())</p>"
    return (summary, html)
  }

  private static func capitalized(_ word: String) -> String {
    word.prefix(1).uppercased() + word.dropFirst()
  }

  static let openers = [
    "We talk about", "Our guest explains", "It turns out that", "Listeners asked about",
    "Nobody expected",
    "We revisit", "A short history of", "Why does", "Here is how", "Finally, we look at",
  ]
  static let adjectives = [
    "quiet", "forgotten", "improbable", "electric", "northern", "ancient", "stubborn", "tiny",
    "golden",
    "unfinished", "secret", "wandering", "accidental", "brilliant", "hidden", "modest",
  ]
  static let nouns = [
    "lighthouses", "maps", "clocks", "bridges", "typewriters", "orchards", "railways", "libraries",
    "satellites", "bees", "telegraphs", "glaciers", "markets", "radios", "canals", "inventors",
    "recipes",
  ]
  static let fillers = [
    "and", "the", "of", "with", "from", "before", "after", "between", "without", "for",
  ]
  static let places = [
    "Lisbon", "the Baltic", "Ohio", "Kyoto", "the Sahara", "Patagonia", "Glasgow", "the Moon",
    "Manila",
    "Côte d'Ivoire", "Zürich", "São Paulo",
  ]
  static let endings = [
    "and what it means today", "with surprising results", "according to the archives",
    "as told by the people who were there", "which nobody wrote down", "more or less",
  ]
}
