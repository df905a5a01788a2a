import PodcastKit

/// How search results look: a numbered table for people, for scripts (`--json`) an array of
/// objects with `null` for what a directory does not say.
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
  /// truncated, so it can be copied whole. On a narrow terminal the episode count goes first,
  /// then the day, the directories and the author.
  static func text(_ results: [SearchResult], width: Int) -> String {
    var table = Table(columns: [
      .init(title: "#", alignment: .right), .init(title: "TITLE", flexible: true),
      .init(title: "AUTHOR", dropOrder: 4),
      .init(title: "EPISODES", alignment: .right, dropOrder: 1),
      .init(title: "NEWEST", dropOrder: 2), .init(title: "LISTED BY", dropOrder: 3),
    ])
    for (offset, result) in results.enumerated() {
      // Directory text is feed text: nothing in it may act on the terminal.
      table.rows.append([
        String(offset + 1), Format.singleLine(result.title ?? "(untitled)"),
        // An author gets at most a quarter of a line: the title is what a search is read for.
        TerminalText.truncated(Format.singleLine(result.author ?? "-"), to: max(8, width / 4)),
        result.episodeCount.map(String.init) ?? "-",
        result.lastPublished.map { Format.day($0) } ?? "-",
        result.directories.map(\.rawValue).joined(separator: ","),
      ])
    }
    let rendered = table.render(width: width)
    let indent = String(repeating: " ", count: String(results.count).count + 2)
    var lines = [rendered[0]]
    for (result, row) in zip(results, rendered.dropFirst()) {
      lines.append(row)
      lines.append(
        result.feedURL.map { indent + Format.singleLine($0) }
          ?? TerminalText.truncated(
            indent + "(no public feed URL: cannot be downloaded)", to: width))
    }
    return lines.joined(separator: "\n")
  }
}
