import Foundation

/// What a person typed after `podcast find`, as terms, and those terms in SQLite FTS5's query
/// syntax. Words must all match (in any order); `"a phrase"` matches its words one after
/// another; `word*` matches words that start so; `-word` and `-"a phrase"` must not match.
/// Everything else is words: operators (`AND`, `OR`, `NEAR(`), column filters (`col:val`),
/// brackets, a quote left open, a lone `*` are never FTS5 syntax, as every term reaches FTS5
/// as a quoted string of the words in it. So no input makes an SQLite error.
///
/// A word is what FTS5's `unicode61` tokenizer takes for one: letters, digits, marks and
/// private-use characters; anything else separates words, so `col:val` is the phrase
/// "col val", as FTS5 would read that text in a document.
public struct FindQuery: Sendable, Equatable {
  public struct Term: Sendable, Hashable {
    /// The words, one after another (one word, or a phrase).
    public var words: [String]
    /// The last word matches any word it starts.
    public var prefix: Bool

    public init(words: [String], prefix: Bool = false) {
      self.words = words
      self.prefix = prefix
    }

    /// As FTS5 reads a string: `"word"`, `"two words"`, `"start"*`. The words hold no quote
    /// (they are letters and digits), so nothing needs escaping; doubled quotes are written
    /// all the same, in case a caller builds terms by hand.
    public var expression: String {
      "\"" + words.joined(separator: " ").replacingOccurrences(of: "\"", with: "\"\"") + "\""
        + (prefix ? "*" : "")
    }
  }

  /// Terms that must match, in the order typed, each once.
  public var required: [Term]
  /// Terms that must not match.
  public var excluded: [Term]

  /// At most this many terms count: a pasted page of text is still a query, not a plan
  /// that runs for minutes. More than any query a person types.
  public static let maxTerms = 64

  public init(required: [Term], excluded: [Term] = []) {
    self.required = required
    self.excluded = excluded
  }

  /// The query in `arguments`, read as one text (`podcast find copper -festival` and
  /// `podcast find 'copper -festival'` are the same query).
  public init(_ arguments: [String]) {
    var required: [Term] = []
    var excluded: [Term] = []
    var seen: Set<Term> = []
    var scanner = Scanner(Array(arguments.joined(separator: " ")))
    while let (term, negated) = scanner.next() {
      guard seen.insert(term).inserted else { continue }
      if negated {
        if excluded.count < Self.maxTerms { excluded.append(term) }
      } else if required.count < Self.maxTerms {
        required.append(term)
      }
    }
    self.required = required
    self.excluded = excluded
  }

  /// Nothing to look for: no word that must match (a query of `*`, `-word` alone, or
  /// punctuation only).
  public var isEmpty: Bool { required.isEmpty }

  /// The FTS5 expression, restricted to `fields` when given (nil: every field); nil when the
  /// query has nothing to look for.
  public func expression(in fields: Set<FindField>? = nil) -> String? {
    guard !required.isEmpty else { return nil }
    var text = required.map(\.expression).joined(separator: " AND ")
    if !excluded.isEmpty {
      text = "(\(text)) NOT (\(excluded.map(\.expression).joined(separator: " OR ")))"
    }
    if let fields, fields != Set(FindField.allCases) {
      let names = fields.sorted().map(\.rawValue).joined(separator: " ")
      text = "{\(names)} : (\(text))"
    }
    return text
  }

  /// Every word of the query's required terms, folded (`FindQuery.fold`), for telling which
  /// of them a passage holds.
  public var foldedWords: Set<String> {
    Set(required.flatMap(\.words).map(Self.fold))
  }

  /// Case and accents ignored, as the index ignores them: `Café` and `CAFE` are `cafe`.
  public static func fold(_ word: String) -> String {
    word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
  }

  /// Whether `scalar` is part of a word for `unicode61` (letters, numbers, marks, private use).
  public static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      let value = scalar.value
      return (value >= 0x30 && value <= 0x39) || ((value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A)
    }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark,
      .privateUse:
      return true
    default:
      return false
    }
  }

  /// The words of `text`: its runs of word characters.
  public static func words(in text: some StringProtocol) -> [String] {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if isWordScalar(scalar) {
        current.append(scalar)
      } else if !current.isEmpty {
        words.append(String(current))
        current = String.UnicodeScalarView()
      }
    }
    if !current.isEmpty { words.append(String(current)) }
    return words
  }

  /// Reads terms one after another: `-`, then a quoted phrase or a run up to white space.
  private struct Scanner {
    let characters: [Character]
    var index = 0

    init(_ characters: [Character]) {
      self.characters = characters
    }

    mutating func next() -> (Term, Bool)? {
      while index < characters.count {
        while index < characters.count && characters[index].isWhitespace { index += 1 }
        guard index < characters.count else { return nil }
        var negated = false
        if characters[index] == "-" && index + 1 < characters.count
          && !characters[index + 1].isWhitespace
        {
          negated = true
          index += 1
        }
        let text: String
        var prefix = false
        if characters[index] == "\"",
          let close = characters[(index + 1)...].firstIndex(of: "\"")
        {
          text = String(characters[(index + 1)..<close])
          index = close + 1
          if index < characters.count && characters[index] == "*" {
            prefix = true
            index += 1
          }
        } else {
          // A quote left open is no phrase: what follows it is words.
          if characters[index] == "\"" { index += 1 }
          let start = index
          while index < characters.count && !characters[index].isWhitespace
            && characters[index] != "\""
          {
            index += 1
          }
          text = String(characters[start..<index])
          prefix = text.hasSuffix("*")
        }
        let words = FindQuery.words(in: text)
        guard !words.isEmpty else { continue }
        // `a*b`: the star is inside, so no prefix; only a final one counts.
        if prefix, let last = text.unicodeScalars.last(where: { $0 != "*" }),
          !FindQuery.isWordScalar(last)
        {
          prefix = false
        }
        return (Term(words: words, prefix: prefix), negated)
      }
      return nil
    }
  }
}
