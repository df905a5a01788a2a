import Foundation
import PodcastKit

/// The `episodes` listing on a terminal or in a pipe. A subscription's episodes the feed no
/// longer lists (`dropped`) follow the feed's own, with `gone` where the number would be:
/// they have none to download by.
enum EpisodeTable {
  static func print(
    podcast: Podcast, episodes: [Episode], indexes: [Int], statuses: [ListedStatus],
    total: Int, filtered: Bool, dropped: [DroppedEpisode] = [], droppedTotal: Int = 0
  ) {
    let heading = [podcast.title, podcast.author.map { "by \($0)" }].compactMap { $0 }.joined(
      separator: " ")
    let width = Console.isTerminal ? Console.width : 100_000
    if !heading.isEmpty {
      Console.print(TerminalText.truncated(Format.singleLine(heading), to: width))
    }
    guard !indexes.isEmpty || !dropped.isEmpty else {
      Console.print(filtered ? "No episodes match." : "No episodes.")
      return
    }
    // A PLAYED column only where something was listened to (`mark --played`, the account).
    let heard = statuses.contains { $0.play != nil } || dropped.contains { $0.status.play != nil }
    // On a narrow terminal the length goes first, then the size, what was played and the
    // date: the number, the state and the title stay.
    var table = Table(
      columns: [
        .init(title: "#", alignment: .right),
        .init(title: "DATE", dropOrder: 4),
        .init(title: "LENGTH", alignment: .right, dropOrder: 1),
        .init(title: "SIZE", alignment: .right, dropOrder: 2),
        .init(title: "STATE"),
      ] + (heard ? [.init(title: "PLAYED", dropOrder: 3)] : []) + [
        // Cut in the middle: one show's titles differ at their start ("Show 70 - ...") or
        // at their end ("... Part 2").
        .init(title: "TITLE", flexible: true, fit: TerminalText.truncatedInMiddle)
      ])
    table.flexibleMinimum = 16
    for (offset, index) in indexes.enumerated() {
      let episode = episodes[index - 1]
      let status = statuses[offset]
      table.rows.append(
        [
          String(index), Format.day(episode.published), Format.duration(episode.duration),
          Format.bytes(episode.enclosure.length), label(status),
        ] + (heard ? [played(status)] : []) + [Format.singleLine(episode.title)])
    }
    for gone in dropped {
      let episode = gone.episode
      table.rows.append(
        ["gone", Format.day(episode.published), "", "", label(gone.status)]
          + (heard ? [played(gone.status)] : []) + [Format.singleLine(episode.title)])
    }
    for line in table.render(width: width) {
      Console.print(line)
    }
    if filtered {
      Console.print("(\(indexes.count) of \(total) episodes shown)")
    } else if indexes.count < total {
      Console.print("(\(total - indexes.count) older episodes not shown)")
    }
    if !dropped.isEmpty || droppedTotal > 0 {
      let notShown = droppedTotal - dropped.count
      Console.print(
        "(gone: \(droppedTotal) no longer in the feed, known to this library"
          + (notShown > 0 ? "; \(notShown) not shown" : "") + ")")
    }
  }

  /// `yes` when heard to the end, else where listening stopped.
  private static func played(_ status: ListedStatus) -> String {
    if status.played { return "yes" }
    guard let position = status.position, position > 0 else { return "" }
    return Format.duration(position)
  }

  private static func label(_ status: ListedStatus) -> String {
    switch status.state {
    case "downloaded": return "done"
    case "skipped": return "skipped"
    case "deleted": return "deleted"
    case "partial":
      return status.progress > 0
        ? Format.percent(status.progress).trimmingCharacters(in: .whitespaces) : "partial"
    default: return "new"
    }
  }
}
