import Foundation
import PodcastKit

/// How `find` shows what it found: for people, a line per episode (podcast, date, index,
/// title, state) and its moments under it, the matched words bold on a terminal; for
/// scripts (`--json`), an array of episodes with their moments, in the keys the README's
/// "Find an episode again" lists.
enum FindResults {
  static func print(_ found: [FindEpisodes.Found]) {
    let bold = Console.isTerminal && !Console.noColor
    let width = Console.isTerminal ? Console.width : 100_000
    let names = found.map { Format.singleLine($0.subscription) }
    let nameWidth = min(24, names.map(TerminalText.width).max() ?? 0)
    let indexes = found.map { $0.index.map(String.init) ?? "gone" }
    let indexWidth = indexes.map(\.count).max() ?? 0
    for (offset, episode) in found.enumerated() {
      var line = TerminalText.padded(
        TerminalText.truncated(names[offset], to: nameWidth), to: nameWidth)
      line += "  " + TerminalText.padded(Format.day(episode.published), to: 10)
      line += "  " + TerminalText.padded(indexes[offset], to: indexWidth, right: true) + "  "
      let label = state(episode.state)
      let room = max(10, width - TerminalText.width(line) - (label.isEmpty ? 0 : label.count + 2))
      let title =
        episode.titleMatch?.pieces ?? [(episode.title ?? "(untitled)", false)]
      line += render(title, columns: room, bold: bold)
      if !label.isEmpty { line += "  " + label }
      Console.print(line)
      for moment in episode.moments where moment.field != .title {
        let head =
          "    " + TerminalText.padded(moment.seconds.map(clock) ?? "", to: 8, right: true) + "  "
          + TerminalText.padded(fieldName(moment.field), to: 10) + "  "
        Console.print(
          head
            + render(
              moment.snippet.pieces, columns: max(10, width - TerminalText.width(head)),
              bold: bold))
      }
    }
    if Console.isTerminal, let first = found.first(where: { $0.index != nil }),
      let index = first.index
    {
      Console.print(
        "\nNext: podcast download \(shellWord(first.subscription)) \(index)   (or podcast episodes \(shellWord(first.subscription)))"
      )
    }
  }

  /// The pieces of a snippet on one line, cut to `columns`, the matched ones bold.
  private static func render(_ pieces: [(text: String, matched: Bool)], columns: Int, bold: Bool)
    -> String
  {
    var out = ""
    var used = 0
    for piece in pieces {
      // Made safe and kept on one line, its spaces kept: they join it to its neighbours.
      let text = String(
        TerminalText.safe(piece.text).map { $0.isWhitespace || $0.isNewline ? " " : $0 })
      let width = TerminalText.width(text)
      let fits = used + width <= columns
      let shown = fits ? text : TerminalText.truncated(text, to: max(0, columns - used))
      out += bold && piece.matched ? "\u{1B}[1m" + shown + "\u{1B}[22m" : shown
      used += TerminalText.width(shown)
      if !fits { break }
    }
    return out
  }

  /// `41:12`, `1:02:03`, `0:05`: where in the audio; `0:00` at the start.
  private static func clock(_ seconds: Int) -> String {
    let text = Format.duration(seconds)
    return text.isEmpty ? "0:00" : text
  }

  private static func fieldName(_ field: FindField) -> String {
    switch field {
    case .title: "title"
    case .chapters: "chapter"
    case .notes: "notes"
    case .transcripts: "transcript"
    }
  }

  /// The state as `episodes` labels it, where it says more than "new".
  private static func state(_ state: String) -> String {
    switch state {
    case "downloaded": "(done)"
    case "deleted": "(deleted)"
    case "skipped": "(skipped)"
    case "partial": "(partial)"
    default: ""
    }
  }

  /// A subscription name as a shell word: quoted when it has anything a shell reads.
  private static func shellWord(_ name: String) -> String {
    let plain = name.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }
    return plain && !name.isEmpty ? name : ShellQuote.quote(name)
  }

  static func json(_ found: [FindEpisodes.Found]) -> JSONValue {
    .array(
      found.map { episode in
        .object([
          ("podcast", .string(episode.podcast)),
          ("subscription", .string(episode.subscription)),
          ("feedURL", .url(episode.feedURL)),
          ("index", .int(episode.index)),
          ("guid", .string(episode.guid)),
          ("title", .string(episode.title)),
          ("published", .date(episode.published)),
          ("state", .string(episode.state)),
          ("file", .string(episode.file)),
          ("url", .url(episode.url)),
          ("score", .double(episode.score)),
          (
            "moments",
            .array(
              episode.moments.map { moment in
                .object([
                  ("field", .string(moment.field.rawValue)),
                  ("time", .int(moment.seconds)),
                  ("snippet", .string(moment.snippet.text)),
                ])
              })
          ),
        ])
      })
  }

  /// What `find --rebuild` made: counts, and the index's size beside the text it indexes.
  static func printRebuilt(_ summary: RebuildFindIndex.Summary, json: Bool) {
    if json {
      Console.print(
        JSONValue.object([
          ("podcasts", .int(summary.podcasts)),
          ("episodes", .int(summary.episodes)),
          ("textBytes", .int(summary.textBytes)),
          ("indexBytes", .int(summary.indexBytes)),
          ("storedTextBytes", .int(summary.storedTextBytes)),
        ]).rendered())
      return
    }
    var line =
      "Indexed \(Format.count(summary.episodes, "episode")) of \(Format.count(summary.podcasts, "podcast")): "
      + "\(Format.bytes(summary.textBytes).orNone) of text"
    if let index = summary.indexBytes {
      line += ", in an index of \(Format.bytes(index).orNone)"
    }
    if let stored = summary.storedTextBytes {
      line += " (and \(Format.bytes(stored).orNone) of text kept for snippets)"
    }
    Console.print(line)
  }
}

extension String {
  /// "0 B" for the empty text `Format.bytes` gives nothing.
  fileprivate var orNone: String { isEmpty ? "0 B" : self }
}
