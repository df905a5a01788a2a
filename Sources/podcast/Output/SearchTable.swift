import PodcastKit

/// How search results look: a numbered table for people, the contract's array for scripts.
enum SearchTable {
  static func json(_ results: [SearchResult]) -> JSONValue {
    .array(
      results.enumerated().map { offset, result in
        .object([
          ("index", .int(offset + 1)),
          ("id", .int(result.id)),
          ("title", .string(result.title)),
          ("author", .string(result.author)),
          ("feedURL", .string(result.feedURL)),
          ("episodeCount", .int(result.episodeCount)),
          ("genre", .string(result.genre)),
          ("artworkURL", .string(result.artworkURL)),
          ("storeURL", .string(result.storeURL)),
          ("releaseDate", .date(result.releaseDate)),
        ])
      })
  }

  /// One row per show (number, title, author, episode count, `itunes:ID`), then the feed URL
  /// on its own indented line, never truncated, so it can be copied whole.
  static func text(_ results: [SearchResult], width: Int) -> String {
    let numberWidth = String(results.count).count
    let episodesWidth = "EPISODES".count
    let idWidth = max("ITUNES ID".count, results.map { "itunes:\($0.id)".count }.max() ?? 0)
    let fixed = numberWidth + episodesWidth + idWidth + 4 * gap.count
    let flexible = max(12, width - fixed)
    let titleWidth = flexible * 3 / 5
    let authorWidth = flexible - titleWidth
    let indent = String(repeating: " ", count: numberWidth + gap.count)

    func row(_ number: String, _ title: String, _ author: String, _ episodes: String, _ id: String)
      -> String
    {
      let cells = [
        TerminalText.padded(number, to: numberWidth, right: true),
        TerminalText.padded(TerminalText.truncated(title, to: titleWidth), to: titleWidth),
        TerminalText.padded(TerminalText.truncated(author, to: authorWidth), to: authorWidth),
        TerminalText.padded(episodes, to: episodesWidth, right: true),
        id,
      ]
      return cells.joined(separator: gap)
    }

    var lines = [row("#", "TITLE", "AUTHOR", "EPISODES", "ITUNES ID")]
    for (offset, result) in results.enumerated() {
      lines.append(
        row(
          String(offset + 1), result.title ?? "(untitled)", result.author ?? "-",
          result.episodeCount.map(String.init) ?? "-", "itunes:\(result.id)"))
      lines.append(indent + (result.feedURL ?? "(no public feed URL: cannot be downloaded)"))
    }
    return lines.joined(separator: "\n")
  }

  private static let gap = "  "
}
