import Basics
import Foundation

/// A transcript beside an episode read into timed cues, so an archive page can show the words
/// being spoken whatever format the publisher chose: WebVTT, SubRip (SRT) or Podcasting 2.0
/// JSON (`segments` with `startTime`, `endTime`, `body` and `speaker`). HTML and plain text
/// transcripts have no times and make no cues. Pure: bytes in, cues out; a file that is not
/// what its name says makes no cues rather than an error.
package enum PageTranscript {
  package struct Cue: Sendable, Equatable {
    /// Seconds from the start of the episode.
    package var start: Double
    package var end: Double
    /// Plain text, markup removed; a speaker as `Name: ` in front.
    package var text: String

    package init(start: Double, end: Double, text: String) {
      self.start = start
      self.end = end
      self.text = text
    }
  }

  /// The formats a transcript file's extension names.
  package enum Format: String, Sendable {
    case webVTT = "vtt"
    case subRip = "srt"
    case json = "json"

    package init?(fileName: String) {
      self.init(rawValue: StandardPath.pathExtension(of: fileName).lowercased())
    }
  }

  /// The cues of `data` read as `format`, in time order; empty when it holds none.
  package static func cues(_ data: Data, format: Format) -> [Cue] {
    let cues: [Cue]
    switch format {
    case .webVTT, .subRip: cues = timedText(String(decoding: data, as: UTF8.self))
    case .json: cues = segments(data)
    }
    return cues.filter { !$0.text.isEmpty }.sorted { $0.start < $1.start }
  }

  /// WebVTT and SRT share their shape: blocks separated by blank lines, each with a
  /// `start --> end` line (a cue number or identifier may come before it) and the text after.
  /// SRT writes `00:01:02,500`, WebVTT `01:02.500` or `00:01:02.500`; WebVTT's header, `NOTE`,
  /// `STYLE` and `REGION` blocks have no timing line and are passed over.
  static func timedText(_ text: String) -> [Cue] {
    var cues: [Cue] = []
    let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
      .replacingOccurrences(of: "\r", with: "\n")
    for block in normalized.components(separatedBy: "\n\n") {
      let lines = block.split(separator: "\n", omittingEmptySubsequences: true)
      guard let timing = lines.firstIndex(where: { $0.contains("-->") }), timing <= 1 else {
        continue
      }
      let parts = lines[timing].components(separatedBy: "-->")
      guard parts.count == 2, let start = timestamp(parts[0]),
        let end = timestamp(parts[1].split(separator: " ").first.map(String.init) ?? "")
      else { continue }
      let body = lines[(timing + 1)...].map { plain(String($0)) }.joined(separator: " ")
      cues.append(Cue(start: start, end: max(end, start), text: body))
    }
    return cues
  }

  /// `01:02:03.500`, `01:02:03,500`, `02:03.500` in seconds; nil for anything else.
  static func timestamp(_ text: String) -> Double? {
    let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(
      of: ",", with: ".")
    let fields = trimmed.split(separator: ":", omittingEmptySubsequences: false)
    guard (2...3).contains(fields.count) else { return nil }
    var seconds = 0.0
    for (position, field) in fields.enumerated() {
      let isLast = position == fields.count - 1
      guard !field.isEmpty,
        field.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
        let value = Double(field)
      else { return nil }
      seconds = seconds * 60 + value
    }
    return seconds
  }

  /// A cue line's text: WebVTT's voice tag made a `Name: ` prefix, other tags (`<i>`,
  /// `<c.loud>`, `<00:01.000>`) removed, the few escapes it has resolved.
  static func plain(_ line: String) -> String {
    var out = ""
    var rest = Substring(line)
    while let open = rest.firstIndex(of: "<") {
      out += rest[..<open]
      guard let close = rest[open...].firstIndex(of: ">") else {
        rest = rest[rest.endIndex...]
        break
      }
      let tag = rest[rest.index(after: open)..<close]
      if tag.hasPrefix("v ") || tag.hasPrefix("v.") {
        let name = tag.drop { $0 != " " }.trimmingCharacters(in: .whitespaces)
        if !name.isEmpty { out += name + ": " }
      }
      rest = rest[rest.index(after: close)...]
    }
    out += rest
    return out.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(
      of: "&gt;", with: ">"
    )
    .replacingOccurrences(of: "&nbsp;", with: " ").replacingOccurrences(of: "&amp;", with: "&")
    .trimmingCharacters(in: .whitespaces)
  }

  /// Podcasting 2.0's JSON transcript: `{"segments": [{"startTime", "endTime", "body",
  /// "speaker"}]}`. Word-level files give a segment per word: one speaker's consecutive words
  /// are joined into cues of up to a sentence or about 10 seconds, as a player shows them.
  static func segments(_ data: Data) -> [Cue] {
    struct File: Decodable { var segments: [Lenient<Segment>] }
    struct Segment: Decodable {
      var startTime: Seconds
      var endTime: Seconds?
      var body: String
      var speaker: String?
    }
    guard let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
    var cues: [Cue] = []
    var current: (cue: Cue, speaker: String?)?
    for segment in file.segments.compactMap(\.value) {
      let body = segment.body.trimmingCharacters(in: .whitespacesAndNewlines)
      guard let start = segment.startTime.value, !body.isEmpty else { continue }
      let end = max(segment.endTime?.value ?? start, start)
      let speaker = segment.speaker.flatMap { $0.isEmpty ? nil : $0 }
      if var open = current, open.speaker == speaker || speaker == nil,
        end - open.cue.start <= 10, !open.cue.text.hasSuffix("."), !open.cue.text.hasSuffix("?"),
        !open.cue.text.hasSuffix("!")
      {
        open.cue.text += " " + body
        open.cue.end = max(open.cue.end, end)
        current = open
        continue
      }
      if let open = current { cues.append(open.cue) }
      let text = speaker.map { "\($0): \(body)" } ?? body
      current = (Cue(start: start, end: end, text: text), speaker)
    }
    if let open = current { cues.append(open.cue) }
    return cues
  }

}

/// A time in a Podcasting 2.0 JSON file: a number, or a number written as a string (some
/// publishers do); nil for anything else, or a time that is not finite and non-negative.
struct Seconds: Decodable {
  var value: Double?

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let number =
      (try? container.decode(Double.self))
      ?? (try? container.decode(String.self)).flatMap {
        Double($0.trimmingCharacters(in: .whitespaces))
      }
    value = number.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
  }
}

/// One element of a list that may not decode: nil then, the others kept.
struct Lenient<Value: Decodable>: Decodable {
  var value: Value?

  init(from decoder: any Decoder) throws {
    value = try? Value(from: decoder)
  }
}

/// A Podcasting 2.0 chapters file (`<episode>.chapters.json`) read into marks an archive page
/// can seek to: `{"chapters": [{"startTime": 0, "title": "Intro", "toc": false?}]}`. Chapters
/// marked `"toc": false` are for players' artwork changes, not the list. Pure.
package enum PageChapters {
  package struct Mark: Sendable, Equatable {
    package var start: Double
    package var title: String

    package init(start: Double, title: String) {
      self.start = start
      self.title = title
    }
  }

  /// The listed chapters in `data`, in time order; empty when it holds none.
  package static func marks(_ data: Data) -> [Mark] {
    struct File: Decodable { var chapters: [Lenient<Chapter>] }
    struct Chapter: Decodable {
      var startTime: Seconds
      var title: String?
      var toc: Bool?
    }
    guard let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
    return file.chapters.compactMap { entry -> Mark? in
      guard let chapter = entry.value, chapter.toc != false, let start = chapter.startTime.value
      else { return nil }
      let title = chapter.title?.trimmingCharacters(in: .whitespacesAndNewlines)
      return Mark(start: start, title: title.flatMap { $0.isEmpty ? nil : $0 } ?? "Chapter")
    }.sorted { $0.start < $1.start }
  }
}
