import Foundation

/// A transcript file, as feeds publish them (`<podcast:transcript>`), read into passages:
/// WebVTT and SRT cues and Podcasting 2.0 JSON segments with the moment each starts, HTML and
/// plain text as paragraphs without times. Liberal: a file that says it is one format and is
/// another is read as what it is, and what cannot be read at all is no passage.
public enum TranscriptReader {
  public enum Format: String, Sendable, CaseIterable {
    case webVTT = "vtt"
    case subRip = "srt"
    case json
    case html
    case text = "txt"
  }

  /// More than a day of speech; bounds what a hostile file makes the index hold.
  public static let maxPassages = 100_000

  /// The passages of a transcript file whose name ends in `fileExtension` (`vtt`, `srt`,
  /// `json`, `html`, `txt`; anything else is told by its content).
  public static func passages(in data: Data, fileExtension: String) -> [Passage] {
    let text = decode(data)
    let named =
      Format(rawValue: fileExtension.lowercased())
      ?? (fileExtension.lowercased() == "htm" ? .html : nil)
    let sniffed = sniff(text)
    // Cues and segments tell themselves apart from prose: a `.txt` or `.html` holding WebVTT
    // is read as WebVTT; a named format that yields nothing is read as what it looks like.
    let format =
      switch (named, sniffed) {
      case (nil, _), (.text?, .webVTT), (.text?, .subRip), (.text?, .json), (.html?, .webVTT):
        sniffed
      case (let named?, _): named
      }
    var passages = read(text, as: format)
    if passages.isEmpty, format != sniffed {
      passages = read(text, as: sniffed)
    }
    return Array(passages.prefix(maxPassages))
  }

  /// What `text` looks like: a WebVTT header, a JSON document, SRT's arrows, tags, or text.
  public static func sniff(_ text: String) -> Format {
    let start = text.drop(while: { $0.isWhitespace })
    if start.hasPrefix("WEBVTT") { return .webVTT }
    if start.hasPrefix("{") || start.hasPrefix("[") { return .json }
    if text.contains("-->") { return .subRip }
    return MarkupText.hasTags(text) ? .html : .text
  }

  static func read(_ text: String, as format: Format) -> [Passage] {
    switch format {
    case .webVTT, .subRip: return CueReader.passages(text)
    case .json: return SegmentReader.passages(text)
    case .html: return paragraphs(MarkupText.text(text, limit: 16 << 20))
    case .text: return paragraphs(text)
    }
  }

  /// Lines of text (after HTML, block by block) as passages without times.
  static func paragraphs(_ text: String) -> [Passage] {
    text.split(whereSeparator: \.isNewline).compactMap { line in
      let cleaned = IndexedText.clean(String(line), keepingLines: false)
      return cleaned.isEmpty ? nil : Passage(start: nil, text: cleaned)
    }
  }

  /// UTF-8 (with or without its mark), UTF-16 with its mark, else Windows-1252's printable
  /// subset as Latin-1: a transcript is words, and a few wrong accents beat none.
  static func decode(_ data: Data) -> String {
    if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
      if let text = String(data: data, encoding: .utf16) { return text }
    }
    let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
    if let text = String(data: body, encoding: .utf8) { return text }
    return String(decoding: body, as: UTF8.self)
  }

  /// `01:02:03.456`, `02:03.456`, `01:02:03,456` (SRT), `1:02:03`: seconds; nil otherwise.
  static func timestamp(_ text: Substring) -> Double? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (2...3).contains(parts.count) else { return nil }
    var seconds = 0.0
    for (position, part) in parts.enumerated() {
      let isLast = position == parts.count - 1
      let value =
        isLast
        ? Double(part.replacingOccurrences(of: ",", with: "."))
        : Double(part)
      guard let value, value >= 0, value.isFinite, !part.isEmpty,
        part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && ($0 == "." || $0 == ","))) })
      else { return nil }
      seconds = seconds * 60 + value
    }
    return seconds
  }
}

/// WebVTT and SRT: blocks between blank lines, each a cue when a line holds `-->`; its start
/// is the time before the arrow, its end the time after it (cue settings such as
/// `align:start` follow), and its text the lines after, tags and entities removed
/// (`<v Speaker>`, `<i>`, `<00:01.000>`, `{\an8}`). The speaker a voice tag names is kept
/// beside the text. Header, `NOTE`, `STYLE` and `REGION` blocks hold no arrow and are left out.
enum CueReader {
  static func passages(_ text: String) -> [Passage] {
    var passages: [Passage] = []
    var start: Double?
    var end: Double?
    var lines: [Substring] = []
    var inCue = false
    func finish() {
      if inCue, let start {
        let body = lines.joined(separator: " ")
        let cleaned = IndexedText.clean(
          MarkupText.text(removingTimestampTags(removingBraceTags(body)), limit: 1 << 16),
          keepingLines: false)
        if !cleaned.isEmpty {
          passages.append(
            Passage(
              start: start, end: end.map { max($0, start) }, speaker: speaker(of: body),
              text: cleaned))
        }
      }
      start = nil
      end = nil
      lines = []
      inCue = false
    }
    for rawLine in text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    ) {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.isEmpty {
        finish()
        if passages.count >= TranscriptReader.maxPassages { break }
        continue
      }
      if !inCue, let arrow = line.range(of: "-->") {
        let left = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
        // SRT numbers its cues; WebVTT may name them: either sits on the line before.
        if let time = TranscriptReader.timestamp(Substring(left)) {
          start = time
          end = line[arrow.upperBound...].split(whereSeparator: \.isWhitespace).first
            .flatMap(TranscriptReader.timestamp)
          inCue = true
          lines = []
          continue
        }
      }
      if inCue { lines.append(Substring(line)) }
    }
    finish()
    return passages
  }

  /// The one person a cue's voice tags name (`<v Roger Bingham>`, `<v.loud Ana>`); nil when
  /// none does, or when they name several: a name shown for the whole cue would then put
  /// one speaker's words in another's mouth.
  static func speaker(of body: String) -> String? {
    guard body.contains("<v") else { return nil }
    var names: Set<String> = []
    var rest = Substring(body)
    while let open = rest.range(of: "<v") {
      rest = rest[open.upperBound...]
      guard let first = rest.first, first == " " || first == ".",
        let close = rest.firstIndex(of: ">")
      else { continue }
      let annotation = rest[..<close].drop { $0 != " " }
      let name = IndexedText.clean(
        MarkupText.text(String(annotation), limit: 1024), keepingLines: false)
      if !name.isEmpty { names.insert(name) }
      rest = rest[close...]
    }
    return names.count == 1 ? names.first : nil
  }

  /// WebVTT's karaoke timestamps (`<00:41:13.000>`) out of a cue's text: no tag to HTML.
  private static func removingTimestampTags(_ text: String) -> String {
    guard text.contains("<") else { return text }
    var out = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "<") {
      let after = rest.index(after: open)
      guard after < rest.endIndex, rest[after].isASCII, rest[after].isNumber,
        let close = rest[after...].firstIndex(of: ">")
      else {
        out += rest[...open]
        rest = rest[after...]
        continue
      }
      out += rest[..<open]
      rest = rest[rest.index(after: close)...]
    }
    return out + rest
  }

  /// SRT's positioning codes (`{\an8}`, `{\i1}`) out of a cue's text.
  private static func removingBraceTags(_ text: String) -> String {
    guard text.contains("{\\") else { return text }
    var out = ""
    var rest = Substring(text)
    while let open = rest.range(of: "{\\") {
      out += rest[..<open.lowerBound]
      guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
        rest = rest[open.lowerBound...]
        break
      }
      rest = rest[rest.index(after: close)...]
    }
    return out + rest
  }
}

/// Podcasting 2.0's JSON transcript: `{"version": "1.0.0", "segments": [{"speaker": "Ada",
/// "startTime": 0.5, "endTime": 1.2, "body": "Hello"}]}`. Segments are often one word each,
/// so they are put together into passages of about a sentence: a new one starts after a
/// sentence's end, at another speaker, after a pause, or past 40 words.
enum SegmentReader {
  private struct Segment {
    var start: Double?
    var end: Double?
    var speaker: String?
    var body: String
  }

  static func passages(_ text: String) -> [Passage] {
    guard let data = text.data(using: .utf8),
      let document = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    else { return [] }
    let list: [Any]
    if let object = document as? [String: Any] {
      list = object["segments"] as? [Any] ?? []
    } else {
      list = document as? [Any] ?? []
    }
    let segments = list.prefix(TranscriptReader.maxPassages * 10).compactMap(segment)
    var passages: [Passage] = []
    var words: [String] = []
    var start: Double?
    var end: Double?
    var speaker: String?
    var lastEnd: Double?
    var count = 0
    func finish() {
      let joined = IndexedText.clean(words.joined(separator: " "), keepingLines: false)
      if !joined.isEmpty {
        let name = speaker.map { IndexedText.clean($0, keepingLines: false) }
        passages.append(
          Passage(
            start: start, end: end.map { max($0, start ?? $0) },
            speaker: name?.isEmpty == false ? name : nil, text: joined))
      }
      words = []
      start = nil
      end = nil
      count = 0
    }
    for segment in segments {
      var pause = false
      if let lastEnd, let begins = segment.start, begins - lastEnd > 2 { pause = true }
      if !words.isEmpty && (segment.speaker != speaker || pause) { finish() }
      if words.isEmpty { start = segment.start }
      speaker = segment.speaker
      words.append(segment.body)
      if let ends = segment.end { end = max(end ?? ends, ends) }
      lastEnd = segment.end ?? segment.start
      count += segment.body.split(separator: " ").count
      if count >= 40 || (count >= 8 && endsSentence(segment.body)) { finish() }
    }
    finish()
    return passages
  }

  private static func endsSentence(_ text: String) -> Bool {
    guard let last = text.trimmingCharacters(in: .whitespaces).last else { return false }
    return ".?!…".contains(last)
  }

  private static func segment(_ value: Any) -> Segment? {
    guard let object = value as? [String: Any] else { return nil }
    let body = (object["body"] ?? object["text"]).flatMap { $0 as? String } ?? ""
    let cleaned = MarkupText.text(body, limit: 1 << 16)
    guard !cleaned.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
    return Segment(
      start: seconds(object["startTime"] ?? object["start"]),
      end: seconds(object["endTime"] ?? object["end"]),
      speaker: object["speaker"] as? String, body: cleaned)
  }

  /// A number of seconds, or a string holding one (`"12.5"`, `"00:00:12.500"`).
  static func seconds(_ value: Any?) -> Double? {
    switch value {
    case let number as NSNumber:
      let seconds = number.doubleValue
      return seconds.isFinite && seconds >= 0 ? seconds : nil
    case let text as String:
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 { return seconds }
      return TranscriptReader.timestamp(Substring(trimmed))
    default:
      return nil
    }
  }
}
