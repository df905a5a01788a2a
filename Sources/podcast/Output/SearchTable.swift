import PodcastKit

/// How search results look: a numbered table for people, the contract's array for scripts.
enum SearchTable {
  static func json(_ results: [SearchResult]) -> JSONValue {
    .array(
      results.enumerated().map { offset, result in
        .object([
          ("index", .int(offset + 1)),
          // `id` was the iTunes id before other directories were asked, and stays so.
          ("id", .int(result.iTunesID)),
          ("title", .string(result.title)),
          ("author", .string(result.author)),
          ("feedURL", .string(result.feedURL)),
          ("episodeCount", .int(result.episodeCount)),
          ("genre", .string(result.genre)),
          ("artworkURL", .string(result.artworkURL)),
          ("storeURL", .string(result.storeURL)),
          ("releaseDate", .date(result.releaseDate)),
          ("directories", .array(result.directories.map { .string($0.rawValue) })),
          ("itunesId", .int(result.iTunesID)),
          ("podcastIndexId", .int(result.podcastIndexID)),
          ("fyydId", .int(result.fyydID)),
          ("podcastGuid", .string(result.podcastGUID)),
          ("lastPublished", .date(result.lastPublished)),
        ])
      })
  }

  /// One row per show (number, title, author, episode count, newest episode's day, the
  /// directories that listed it), then the feed URL on its own indented line, never
  /// truncated, so it can be copied whole.
  static func text(_ results: [SearchResult], width: Int) -> String {
    let numberWidth = String(results.count).count
    let episodesWidth = "EPISODES".count
    let newestWidth = "2024-05-01".count
    let listed = results.map { $0.directories.map(\.rawValue).joined(separator: ",") }
    let listedWidth = max("LISTED BY".count, listed.map(\.count).max() ?? 0)
    let fixed = numberWidth + episodesWidth + newestWidth + listedWidth + 5 * gap.count
    let flexible = max(12, width - fixed)
    let titleWidth = flexible * 3 / 5
    let authorWidth = flexible - titleWidth
    let indent = String(repeating: " ", count: numberWidth + gap.count)

    func row(
      _ number: String, _ title: String, _ author: String, _ episodes: String, _ newest: String,
      _ directories: String
    ) -> String {
      let cells = [
        TerminalText.padded(number, to: numberWidth, right: true),
        TerminalText.padded(TerminalText.truncated(title, to: titleWidth), to: titleWidth),
        TerminalText.padded(TerminalText.truncated(author, to: authorWidth), to: authorWidth),
        TerminalText.padded(episodes, to: episodesWidth, right: true),
        TerminalText.padded(newest, to: newestWidth),
        directories,
      ]
      return cells.joined(separator: gap)
    }

    var lines = [row("#", "TITLE", "AUTHOR", "EPISODES", "NEWEST", "LISTED BY")]
    for (offset, result) in results.enumerated() {
      // Directory text is feed text: nothing in it may act on the terminal.
      lines.append(
        row(
          String(offset + 1), Format.singleLine(result.title ?? "(untitled)"),
          Format.singleLine(result.author ?? "-"), result.episodeCount.map(String.init) ?? "-",
          result.lastPublished.map { Format.day($0) } ?? "-", listed[offset]))
      lines.append(
        indent
          + (result.feedURL.map { Format.singleLine($0) }
            ?? "(no public feed URL: cannot be downloaded)"))
    }
    return lines.joined(separator: "\n")
  }

  private static let gap = "  "
}
