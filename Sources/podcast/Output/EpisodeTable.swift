import Foundation
import PodcastKit

/// The `episodes` listing on a terminal or in a pipe.
enum EpisodeTable {
  static func print(
    podcast: Podcast, episodes: [Episode], statuses: [EpisodeDownloadStatus], total: Int
  ) {
    let heading = [podcast.title, podcast.author.map { "by \($0)" }].compactMap { $0 }.joined(
      separator: " ")
    if !heading.isEmpty { Console.print(Format.singleLine(heading)) }
    guard !episodes.isEmpty else {
      Console.print("No episodes.")
      return
    }
    var table = Table(columns: [
      .init(title: "#", alignment: .right),
      .init(title: "DATE"),
      .init(title: "LENGTH", alignment: .right),
      .init(title: "SIZE", alignment: .right),
      .init(title: "STATE"),
      .init(title: "TITLE", flexible: true),
    ])
    for (offset, episode) in episodes.enumerated() {
      table.rows.append([
        String(offset + 1), Format.day(episode.published), Format.duration(episode.duration),
        Format.bytes(episode.enclosure.length), label(statuses[offset]),
        Format.singleLine(episode.title),
      ])
    }
    for line in table.render(width: Console.isTerminal ? Console.width : 100_000) {
      Console.print(line)
    }
    if episodes.count < total {
      Console.print("(\(total - episodes.count) older episodes not shown)")
    }
  }

  private static func label(_ status: EpisodeDownloadStatus) -> String {
    switch status.state {
    case .new: return "new"
    case .downloaded: return "done"
    case .partial:
      return status.progress > 0
        ? Format.percent(status.progress).trimmingCharacters(in: .whitespaces) : "partial"
    }
  }
}
